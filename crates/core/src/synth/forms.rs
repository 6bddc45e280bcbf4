//! The forms synth writes (`--form`): a subset of the one list of forms, each said as that form's.

use crate::score::Form;

/// The scoring form of every session: the forms synth writes (what each is, is its
/// [`Form`](crate::score::Form)'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthForm {
    Mp,
    Ximp,
    Butler,
    Napki,
    Teams,
}

impl SynthForm {
    /// The forms synth writes, in `score::form`'s order.
    pub const ALL: [SynthForm; 5] = [
        SynthForm::Mp,
        SynthForm::Ximp,
        SynthForm::Butler,
        SynthForm::Napki,
        SynthForm::Teams,
    ];

    /// The form it is.
    pub fn form(self) -> crate::score::Form {
        match self {
            SynthForm::Mp => Form::Mp,
            SynthForm::Ximp => Form::Ximp,
            SynthForm::Butler => Form::Butler,
            SynthForm::Napki => Form::Napki,
            SynthForm::Teams => Form::Teams,
        }
    }

    pub fn parse(s: &str) -> Option<SynthForm> {
        SynthForm::ALL.into_iter().find(|f| f.name() == s)
    }

    pub fn name(self) -> &'static str {
        self.form().name()
    }

    /// Its kind (in matches, the synthetic log has matches, not a movement).
    pub(super) fn plug(self) -> &'static crate::kind::Plug {
        crate::kind::of(self.form())
    }

    /// Whether salliere (the peer of `scripts/compare_salliere.sh`) scores it: salliere's pairs
    /// forms are matchpoints and cross-IMPs.
    pub fn salliere(self) -> bool {
        match self {
            SynthForm::Mp | SynthForm::Ximp => true,
            SynthForm::Butler | SynthForm::Napki | SynthForm::Teams => false,
        }
    }

    /// The synth forms `keep` accepts, each said by `say`, as English text ("mp or ximp").
    pub(super) fn listed(
        keep: impl Fn(SynthForm) -> bool,
        say: fn(Form) -> &'static str,
        last: &str,
    ) -> String {
        // (in the one list's order, which `ALL` keeps)
        Form::listed(
            |f| SynthForm::ALL.into_iter().any(|s| s.form() == f && keep(s)),
            say,
            last,
        )
    }
}
