//! The command line (clap). No bridge knowledge here.

use std::path::PathBuf;

use clap::{ArgAction, Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  frekans check events/mazovia-pairs-2026.jsonl
  frekans score events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026
  frekans explain events/mazovia-pairs-2026.jsonl --session S1 --board 5 --section A
  frekans score events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026 --dd
  frekans synth --sections 3125 --tables 16 --boards 24 --compare field --out /tmp/big.jsonl
  frekans score /tmp/big.jsonl --out reports/big --threads 1 -v
  frekans publish events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026

The log format: docs/event-log.md; the rules cited as C1-C38: docs/conventions.md.

Limits: a log of at most 4 GiB (FREKANS_MAX_LOG_MIB sets another, in MiB); an event given
to `append` of at most 1 MiB; --threads at most 1024; a file to `import` of at most 1 GiB; a
key or head file of 64 KiB, LOG.sig of 64 MiB. Beyond them: exit status 2.

Exit status: 0 success; 2 the log is invalid (every problem printed, nothing written) or the
request is (a session, board or ruling the log does not have, bad flags); 1 anything else.";

const PUBLISH_HELP: &str = "\
DIR holds what `frekans bulletin` writes (scores, frequencies, boards, standings, rulings and
deals .parquet, matches.parquet for team sessions, bulletin.pdf, .json and .typ) and, in
DIR/site, what `frekans site` writes (open DIR/site/index.html), the same bytes.

Run it again after the log changes (a ruling appended, the next session's results): each file
is compared with the one in DIR and only those whose content changed are rewritten (the others
keep their modification time: an rsync or a static host sees only what changed); pages that no
longer exist are removed. DIR/.frekans-publish lists what publish wrote: it never removes a
file it did not write. Nothing in DIR changes unless every file was made (an invalid log: exit
status 2, DIR as it was).

Example (the nightly run, then copy the site to the web server):
  frekans append ~/club/2026-11-25.jsonl '{\"type\":\"ruling\",\"id\":\"R9\",...}'
  frekans publish ~/club/2026-11-25.jsonl --out ~/club/results --lang pl
  rsync -a --delete ~/club/results/site/ www.example.org:/var/www/results/";

#[derive(Debug, Parser)]
#[command(name = "frekans", version, about = "Score duplicate-bridge championships from an append-only event log", long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    /// More detail on standard error (-v: stage timings, -vv: debug).
    #[arg(short, long, action = ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Print nothing but errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Worker threads for scoring boards (default: one per core; at most 1024). Results do
    /// not depend on it.
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
    /// Notices printed: `summary` (every one when there are few, else how many of each kind
    /// and the first few) or `all`.
    #[arg(long, global = true, value_name = "WHICH", default_value = "summary", value_parser = ["summary", "all"])]
    pub notices: String,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay the log, score every board, write the Parquet tables to DIR and print a summary.
    #[command(
        after_help = "Example:\n  frekans score events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026"
    )]
    Score {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// Output directory (written whole or not at all).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Standings lines to print per group in the summary.
        #[arg(long, default_value_t = 3, value_name = "N")]
        top: usize,
        /// Also solve every deal double dummy and write deals.parquet (tricks and par).
        #[arg(long)]
        dd: bool,
        /// Do not leave the log's audit cache (FREKANS_AUDIT_CACHE, else
        /// ~/.cache/frekans/audit), from which the next `frekans audit` of this log answers
        /// without reading it whole; with --dd, neither read nor keep solved deals (its dd/).
        #[arg(long)]
        no_cache: bool,
    },
    /// Everything `score` does, plus a PDF bulletin rendered by the typst program.
    #[command(
        after_help = "Example:\n  frekans bulletin events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026 --lang pl"
    )]
    Bulletin {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// Output directory (written whole or not at all).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[command(flatten)]
        render: Render,
    },
    /// Write the results website: static HTML pages (standings, each pair's or team's
    /// scorecard, each board with its hands, traveller and frequency table, the matches, the
    /// rulings) that open from disk or any static host, with no server and no script.
    #[command(
        after_help = "Pages: index.html; sessions/S1.html (standings, matches, boards); overall.html;\n\
pairs/A12.html, teams/T3.html or players/7.html (a scorecard); boards/S1-A-14.html (session,\n\
section, board); \
rulings.html (what each ruling changed). The directory is written whole or not at all.\n\n\
Examples:\n  frekans site events/mazovia-pairs-2026.jsonl --out /tmp/mazovia-site\n  \
frekans site events/polish-teams-2026.jsonl --out /tmp/teams-site --lang pl\n  \
xdg-open /tmp/mazovia-site/index.html"
    )]
    Site {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// Output directory (written whole or not at all).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Language of the pages.
        #[arg(long, default_value = "en", value_parser = ["en", "pl"])]
        lang: String,
        /// Do not leave the log's audit cache, nor read or keep solved deals (as
        /// `bulletin --no-cache`).
        #[arg(long)]
        no_cache: bool,
    },
    /// The director's nightly command: the Parquet tables and the PDF bulletin (as `bulletin`
    /// writes them) and the results website in DIR/site (as `site` writes it), made from one
    /// scoring and one double-dummy pass. Only the files whose content changed are rewritten.
    #[command(after_help = PUBLISH_HELP)]
    Publish {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// Output directory (DIR/site holds the website).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[command(flatten)]
        render: Render,
    },
    /// Compare the standings with and without a ruling, or at two points of the log, or with
    /// proposed rulings not yet recorded (what-if).
    #[command(after_help = AUDIT_HELP)]
    Audit {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// Standings without ruling ID (and every ruling superseding it) against the whole log.
        #[arg(long, value_name = "ID", group = "question")]
        ruling: Option<String>,
        /// The standings after event SEQ against today's.
        #[arg(long, value_name = "SEQ", group = "question")]
        as_of: Option<usize>,
        /// The standings after event SEQ1 against those after event SEQ2.
        #[arg(long, num_args = 2, value_names = ["SEQ1", "SEQ2"], group = "question")]
        between: Option<Vec<usize>>,
        /// What-if: the standings with this proposed event (a ruling, ruling_withdrawn,
        /// correction or penalty, as `append` takes it) added at the end of the log, against
        /// the log as it is. Nothing is written to the log. Repeat it to add several, in order.
        #[arg(long = "with", value_name = "EVENT_JSON", group = "question", action = ArgAction::Append)]
        with: Vec<String>,
        /// As --with, the proposed events read from FILE, one JSON object a line (blank and
        /// `//` lines skipped).
        #[arg(long, value_name = "FILE", group = "question")]
        with_file: Option<PathBuf>,
        /// Several proposed rulings for the same table, one JSON object a line of FILE: each
        /// added on its own, and the affected participants' places and totals under each side
        /// by side (--out DIR: audit_alternatives.parquet).
        #[arg(long, value_name = "FILE", group = "question")]
        alternatives: Option<PathBuf>,
        /// `text` (a readable report) or `json` (one JSON object, for scripts).
        #[arg(long, default_value = "text", value_parser = ["text", "json"])]
        format: String,
        /// Also write audit_standings.parquet and audit_boards.parquet to DIR
        /// (audit_alternatives.parquet with --alternatives).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Neither read nor write the audit cache (FREKANS_AUDIT_CACHE, else
        /// ~/.cache/frekans/audit): read, replay and score the whole log. The answer is the same.
        #[arg(long)]
        no_cache: bool,
    },
    /// Validate one new event against the whole log and append it durably (seq, time, hash).
    #[command(
        after_help = "Examples:\n  frekans append /tmp/mazovia.jsonl '{\"type\":\"ruling_withdrawn\",\"ruling\":\"R3\",\"by\":\"Appeals committee\"}'\n  echo '{\"type\":\"correction\",\"result\":41,\"tricks\":9}' | frekans append /tmp/mazovia.jsonl -"
    )]
    Append {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// The event, one JSON object (`-` reads it from standard input).
        event: String,
        /// Do not leave the log's audit cache (as `score --no-cache`): by default the new
        /// log is scored once appended, so that an audit of the event answers at once.
        #[arg(long)]
        no_cache: bool,
    },
    /// Move a torn last line (power lost mid-write) to a side file next to the log.
    #[command(after_help = "Example:\n  frekans repair events/mazovia-pairs-2026.jsonl")]
    Repair {
        /// The event log (JSON Lines).
        log: PathBuf,
    },
    /// Write the scored championship as USEBIO 1.2 XML or PBN 2.1 (hands, score tables,
    /// totals) for federations, results sites and other scoring programs.
    #[command(
        after_help = "Examples:\n  frekans export events/mazovia-pairs-2026.jsonl --format usebio --out mazovia.xml\n  frekans export events/polish-teams-2026.jsonl --format pbn --out teams.pbn --session RR1\n\nThe file is written whole or not at all. Exit status: 0 written; 2 the log is invalid or\nthe request cannot be met (nothing written); 1 anything else."
    )]
    Export {
        log: PathBuf,
        /// usebio (USEBIO 1.2) or pbn (PBN 2.1).
        #[arg(long, value_parser = ["usebio", "pbn"])]
        format: String,
        /// The file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Only this session (USEBIO: sessions of different forms go one at a time).
        #[arg(long, value_name = "ID")]
        session: Option<String>,
    },
    /// Validate the log: every error with its line number; exit 0 when clean. Prints the log's
    /// head (event count and SHA-256), which a later check can be held to (docs/integrity.md).
    #[command(
        after_help = "Examples:\n  frekans check events/mazovia-pairs-2026.jsonl\n  frekans check events/x.jsonl --head 1200:9f86d0...\n  frekans check events/x.jsonl --key director.key.pub"
    )]
    Check {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// Also prove the log still extends this published head (`N HASH` or `N:HASH` as
        /// `check` prints it, or the hash alone): exit 2 if events up to it were changed or
        /// removed.
        #[arg(long, value_name = "HEAD", conflicts_with = "head_file")]
        head: Option<String>,
        /// As --head, the head read from FILE (e.g. saved from `check`'s output).
        #[arg(long, value_name = "FILE")]
        head_file: Option<PathBuf>,
        /// Also verify the log's signed checkpoints (LOG.sig, or --sig) with this Ed25519
        /// public key file (`frekans sign --new-key`): exit 2 unless every one is the key's
        /// and holds for the log.
        #[arg(long, value_name = "PUBKEY")]
        key: Option<PathBuf>,
        /// The signed checkpoints file (default: the log's name with `.sig`).
        #[arg(long, value_name = "FILE", requires = "key")]
        sig: Option<PathBuf>,
    },
    /// Sign the log's head with the chief director's Ed25519 key: a checkpoint appended to
    /// LOG.sig, which `check --key` verifies (docs/integrity.md). `--new-key FILE` makes a key
    /// pair first (FILE, readable by its owner only, and FILE.pub to publish).
    #[command(
        after_help = "Examples:\n  frekans sign --new-key director.key\n  frekans sign events/x.jsonl --key director.key"
    )]
    Sign {
        /// The event log (JSON Lines).
        #[arg(required_unless_present = "new_key")]
        log: Option<PathBuf>,
        /// The secret key file.
        #[arg(long, value_name = "FILE", required_unless_present = "new_key")]
        key: Option<PathBuf>,
        /// Make a new key pair: the secret key to FILE, the public key to FILE.pub (neither
        /// overwritten if it exists).
        #[arg(long, value_name = "FILE", conflicts_with = "key")]
        new_key: Option<PathBuf>,
        /// The signed checkpoints file (default: the log's name with `.sig`).
        #[arg(long, value_name = "FILE")]
        sig: Option<PathBuf>,
    },
    /// Read results files of other scoring programs (PBN, CSV; USEBIO, BWS) into an event log.
    #[command(after_help = IMPORT_HELP)]
    Import(ImportArgs),
    /// Follow a session while it is played: its Bridgemate BWS imported into the log as it
    /// fills, and the results website (with a projector page) kept up to date.
    #[command(after_help = LIVE_HELP)]
    Live(LiveArgs),
    /// Write a synthetic but realistic championship log (or salliere's CSV input) of any size.
    #[command(after_help = SYNTH_EXAMPLES)]
    Synth(SynthArgs),
    /// A federation's championships as one dataset that DuckDB, polars, Spark, pyarrow and
    /// Delta Lake readers read as one table per kind (scores, standings, results...):
    /// `add` scores logs into it, `list` names what it holds, `remove` takes one out.
    #[command(after_help = DATASET_HELP)]
    Dataset {
        #[command(subcommand)]
        command: DatasetCommand,
    },
    /// Show how one board was scored: frequency tables, adjusted scores, each side's arithmetic.
    #[command(
        after_help = "Examples:\n  frekans explain events/mazovia-pairs-2026.jsonl --session S1 --board 5 --section A\n  frekans explain events/mazovia-pairs-2026.jsonl --session S1 --board 14 --section A \\\n      --with '{\"type\":\"ruling_withdrawn\",\"ruling\":\"R8\"}'"
    )]
    Explain {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// Session id.
        #[arg(long)]
        session: String,
        /// Board number.
        #[arg(long)]
        board: u32,
        /// Only this section (default: every comparison group that played the board).
        #[arg(long)]
        section: Option<String>,
        /// The board under this proposed event (as `audit --with`), added at the end of the
        /// log; nothing is written. Repeatable.
        #[arg(long = "with", value_name = "EVENT_JSON", action = ArgAction::Append)]
        with: Vec<String>,
        /// As --with, the proposed events read from FILE, one JSON object a line.
        #[arg(long, value_name = "FILE", conflicts_with = "with")]
        with_file: Option<PathBuf>,
    },
}

const AUDIT_HELP: &str = "\
Examples:
  frekans audit events/mazovia-pairs-2026.jsonl --ruling R8
  frekans audit events/mazovia-pairs-2026.jsonl --ruling R13 --format json
  frekans audit events/mazovia-pairs-2026.jsonl --as-of 800
  frekans audit events/mazovia-pairs-2026.jsonl --between 800 1200 --out reports/audit
  frekans audit events/mazovia-pairs-2026.jsonl --with '{\"type\":\"ruling_withdrawn\",\"ruling\":\"R8\"}'
  frekans audit events/mazovia-pairs-2026.jsonl --format json --with \\
      '{\"type\":\"ruling\",\"id\":\"AC1\",\"session\":\"S1\",\"board\":5,\"ns\":\"A4\",\"score\":\"(60%+420&40%-50)\"}'
  frekans audit events/mazovia-pairs-2026.jsonl --alternatives proposals.jsonl --out /tmp/appeal

What-if (--with, --with-file, --alternatives): the proposed events are checked exactly as
`frekans append` checks them (the same messages, numbered as the log's next lines; exit 2) and
never written; the answer is the audit of the log with them added at its end against the log
as it is (JSON: {\"audit\": {\"with\": [...]}, ...}). --alternatives FILE holds several rulings
for one table, one a line: each is added on its own and the affected participants' places and
totals are shown under each, side by side. Answered from the audit cache when it can.
The questions and their JSON and Parquet outputs: docs/audit.md.";

const DATASET_HELP: &str = "\
Examples:
  frekans dataset add events/*.jsonl --to /srv/federation
  frekans dataset add events/club-2026-11-25.jsonl --to /srv/federation --id club-2026-11-25
  frekans dataset list --to /srv/federation
  frekans dataset remove club-2026-11-25 --to /srv/federation
  duckdb -c \"SELECT * FROM read_parquet('/srv/federation/scores/**/*.parquet', hive_partitioning=true)\"

DIR/<table>/season=YYYY/championship=ID/part-0.parquet for the tables championships, sessions,
results, scores, standings, boards, matches, rulings, deals and players; each table directory is
also a Delta Lake table (DIR/<table>/_delta_log). Adding a log whose head has not changed writes
nothing; a changed log replaces its championship's files only; each add that changes anything is
one new version. Runs on one DIR wait for each other; one killed anywhere is finished by the
next. Columns, layout and guarantees: docs/dataset.md.

Exit status: 0 done; 2 a log is invalid or the request is (nothing written); 1 anything else.";

#[derive(Debug, Subcommand)]
pub enum DatasetCommand {
    /// Score each LOG (as `score` does) into the dataset DIR: its championship's rows added, or
    /// replaced when the log changed since it was added; one new version if anything changed.
    #[command(after_help = DATASET_HELP)]
    Add {
        /// The event logs, one championship each.
        #[arg(required = true, value_name = "LOG")]
        logs: Vec<PathBuf>,
        /// The dataset's directory (made if it does not exist).
        #[arg(long, value_name = "DIR")]
        to: PathBuf,
        /// The championship's id (one LOG only; default: the log file's name without its
        /// extension). Letters, digits, '.', '_' and '-'.
        #[arg(long, value_name = "ID")]
        id: Option<String>,
        /// The date of a championship whose log names none (its championship event's `date`,
        /// else its first event's `at`).
        #[arg(long, value_name = "YYYY-MM-DD")]
        date: Option<String>,
        /// The season of a championship whose date is unknown (default: the date's year).
        #[arg(long, value_name = "YYYY", value_parser = clap::value_parser!(i32).range(1..=9999))]
        season: Option<i32>,
    },
    /// Name every championship of the dataset: id, season, log head, rows, when added.
    #[command(after_help = "Example:\n  frekans dataset list --to /srv/federation --json")]
    List {
        /// The dataset's directory.
        #[arg(long, value_name = "DIR")]
        to: PathBuf,
        /// One JSON object a championship, one a line.
        #[arg(long)]
        json: bool,
    },
    /// Take a championship out of the dataset (a new version; earlier versions keep it for
    /// time travel).
    #[command(
        after_help = "Example:\n  frekans dataset remove club-2026-11-25 --to /srv/federation"
    )]
    Remove {
        /// The championship's id, as `dataset list` names it.
        id: String,
        /// The dataset's directory.
        #[arg(long, value_name = "DIR")]
        to: PathBuf,
    },
}

const SYNTH_EXAMPLES: &str = "\
Examples:
  frekans synth --out small.jsonl
  frekans synth --sessions 2 --sections 4 --tables 13 --boards 26 --rulings 0.02 --deals --seed 7 > two-days.jsonl
  frekans synth --sections 3125 --tables 16 --boards 24 --compare field --form ximp --out /tmp/big.jsonl
  frekans synth --form teams --sections 2 --tables 8 --boards 28 --sessions 3 --out teams.jsonl
  frekans synth --kind individual --form mp --sections 1 --tables 250 --boards 26 --out individual.jsonl
  frekans synth --format salliere --rulings 0 --corrections 0 --compare field --out boards.csv --names names.csv
  frekans synth --format pbn --rulings 0 --corrections 0 --sections 3125 --tables 16 --out big.pbn

The same arguments and seed always write the same bytes. Every log written passes `frekans check`.
--tables counts tables per section (team forms: matches per section, two tables each); every
section plays every board at every table, the EW pairs moving one table a round. With --kind
individual a section of N tables seats 4N players; North stays, South, East and West move 1, 2
and 3 tables a round, so that partners change every round.
Exit status: 0 written; 2 the arguments are invalid (nothing written); 1 anything else.";

#[derive(Debug, clap::Args)]
pub struct SynthArgs {
    /// Sessions (each plays boards 1..=BOARDS; the pairs stay the same).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub sessions: u32,
    /// Sections (A, B, ..., Z, AA, ...).
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub sections: u32,
    /// Boards per session.
    #[arg(long, default_value_t = 24, value_name = "N")]
    pub boards: u32,
    /// Tables per section (team forms: matches per section).
    #[arg(long, default_value_t = 12, value_name = "N")]
    pub tables: u32,
    /// Scoring form of every session.
    #[arg(long, default_value = "mp", value_parser = synth_forms())]
    pub form: String,
    /// The sessions' kind, when not the form's own: `individual` (with --form mp, ximp or
    /// butler) seats four players a table, each for themself, partners changing every round.
    #[arg(long, value_parser = synth_kinds())]
    pub kind: Option<String>,
    /// Compare each section on its own, or the whole field together.
    #[arg(long, default_value = "section", value_parser = ["section", "field"])]
    pub compare: String,
    /// Share of tables given a ruling (every kind in turn: artificial, not played, assigned,
    /// weighted, split, mixed, subsequent damage, withdrawn, appealed).
    #[arg(long, default_value_t = 0.01, value_name = "FRACTION")]
    pub rulings: f64,
    /// Share of results corrected (Law 79C: tricks off by one) at the end of their session.
    #[arg(long, default_value_t = 0.002, value_name = "FRACTION")]
    pub corrections: f64,
    /// Seed of the generator: the same seed writes the same bytes.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
    /// Also write a `deal` event (PBN hand record) for every board.
    #[arg(long)]
    pub deals: bool,
    /// Scoring options of every session, a JSON object (e.g. '{"ximp_normalize":"comparisons"}').
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
    /// `jsonl` (the event log), `salliere` (its boards CSV, plus the names CSV of --names) or
    /// `pbn` (a PBN 2.1 results file, one game per board, as `frekans import` reads) or `usebio`
    /// (the log scored and exported as `frekans export --format usebio` writes it).
    #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "salliere", "pbn", "usebio"])]
    pub format: String,
    /// Output file (written whole or not at all); standard output when not given.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// With --format salliere: the names file (default: the --out file with `.names.csv`).
    #[arg(long, value_name = "FILE")]
    pub names: Option<PathBuf>,
    /// The championship's date, YYYY-MM-DD (default 2026-11-21).
    #[arg(long, value_name = "DATE")]
    pub date: Option<String>,
    /// Seat players drawn from a federation of N members, each with a member number and always
    /// the same name, in fixed partnerships (a season's logs share players).
    #[arg(long, value_name = "N")]
    pub members: Option<u32>,
    /// Draw the boards' deals from this seed rather than --seed: logs with the same deal seed
    /// play the same deal set (a simultaneous pairs), each with its own results.
    #[arg(long, value_name = "N")]
    pub deal_seed: Option<u64>,
}

const LIVE_HELP: &str = "\
Every --every seconds the BWS is read (a copy taken while Bridgemate Control Software writes
to it is taken again; one that cannot be read is tried again at the next cycle, never half
imported) and what is new is appended to LOG exactly as `frekans import SESSION.bws --append LOG`
appends it (LOG is made at the first cycle if it does not exist). When the log grew, the results
website is written into DIR, only the pages whose bytes changed rewritten, with DIR/live.html:
the projector page, in large type, the running standings and the travellers of the boards every
table has played (latest first; never a board still to be played somewhere), refreshing
itself every --every seconds without script. It stops when the movement's last board is
entered, or on Ctrl-C after the cycle under way; killed, it loses nothing, and started again
it carries on.

Examples:
  frekans live C:/BCS/club-2026-11-29.bws --log club-2026-11-29.jsonl --out /var/www/club
  frekans live session.bws --log club.jsonl --out site --every 5 --hide-last 2

Exit status: 0 stopped (complete, Ctrl-C or --cycles); 2 the request is invalid; 1 anything
else (the log or DIR cannot be written).";

const IMPORT_HELP: &str = "\
Examples:
  frekans import results.pbn --out events/club-2026-11-25.jsonl
  frekans import day1.pbn day2.pbn --out events/pairs.jsonl          # one session per file: S1, S2
  frekans import day3.pbn --append events/pairs.jsonl                # the next session, durably
  frekans import travellers.csv --format csv --form mp --out club.jsonl
  frekans import sheet.csv --format csv --form butler \\
      --columns board=Board,ns=NS,ew=EW,contract=Contract,declarer=By,tricks=Tricks --out club.jsonl
  frekans import results.pbn --form ximp --options '{\"ximp_normalize\":\"comparisons\"}' --out x.jsonl
  frekans import session.bws --append events/club.jsonl              # Bridgemate, live: only what is new

The format is recognised from the content (--format forces it). PBN: each game's ScoreTable
(one row per table, or per distinct result with Multiplicity), [Deal]/[Dealer]/[Vulnerable],
[Scoring] (MP, MP1, MP2 -> mp; Butler -> butler, datum of every result; Butler-2 -> butler
without the top and bottom result; Cross / Cross1 / Cross2 -> ximp summed / per result / per
comparison; Median -> the median datum); artificial scores (^60, A+, A-, A=, A A A) become
rulings (law 12C, note \"imported: <token>\"). UTF-8 or ISO-8859-1, CRLF or LF.

CSV (--format csv): a header row naming the columns session, section, board, ns, ew, contract,
declarer, tricks (or result: =, +1, -2; or score: NS points) and optionally table, round, lead,
ns_players, ew_players; any other layout is mapped with --columns field=Header,... Separated by
commas, semicolons or tabs. Artificial scores in score: A6040, A+/A-, 60%/40%, A.
An individual session names its four players in north, south, east, west (in place of ns, ew),
with north_player... (names) and north_player_id... (member numbers).

Individual events (docs/interop.md \"Individual events\"): USEBIO EVENT_TYPE=\"INDIVIDUAL\"
(PLAYERs, N_/S_/E_/W_PLAYER_NUMBER on each line), the CSV columns above, and a BWS whose
RoundData/ReceivedData have South and West (TabScore's layout) make a session of kind
individual. export --format usebio writes it back in the same USEBIO layout; PBN cannot say
an individual session and refuses it (exit 2).

BWS (Bridgemate's Access database, read with Debian's mdbtools: mdb-tables, mdb-export): the
results entered so far (ReceivedData: each table's last entry, erased ones honoured), sections,
the movement, names and hand records. Imported again with --append into the log that has its
session, it adds only what is new: new results, a correction where a result was re-entered,
nothing twice (docs/interop.md).

A slip in one line does not sink the file: a traveller line whose contract cannot be read but
whose score can is taken by its score, and a notice names the line (--strict refuses instead).

Where a file does not say how it is scored, --form (and --compare, --options) say it; given,
they win over the file. The new log is written whole or not at all and never replaces a file;
--append adds the files' sessions to a log under its lock, with seq and the hash chain, all or
nothing, after checking that pairs with the log's ids are the log's pairs.

Exit status: 0 imported; 2 a file is invalid (every problem printed with its file and line,
nothing written); 1 anything else.";

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The results files (PBN, CSV; one session each).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The new log to write (refused if the file exists).
    #[arg(
        long,
        value_name = "LOG",
        required_unless_present = "append",
        conflicts_with = "append"
    )]
    pub out: Option<PathBuf>,
    /// Add the files' sessions to this existing log instead.
    #[arg(long, value_name = "LOG")]
    pub append: Option<PathBuf>,
    /// Read every file as this format (default: recognised from its content).
    #[arg(long, value_parser = ["pbn", "usebio", "csv", "bws"])]
    pub format: Option<String>,
    // (the forms listed from score::form)
    #[arg(long, value_name = "FORM", help = import_form_help())]
    pub form: Option<String>,
    /// Compare each section on its own, or the whole field together.
    #[arg(long, value_parser = ["section", "field"])]
    pub compare: Option<String>,
    /// Session options, a JSON object merged over what the file implies.
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
    /// CSV: the header each field is read from, e.g. board=Board,ns=NS,ew=EW,tricks=Tricks.
    #[arg(long, value_name = "FIELD=HEADER,...")]
    pub columns: Option<String>,
    /// Skip the rows and games that cannot be read (and say which) instead of refusing the file.
    #[arg(long)]
    pub lenient: bool,
    /// Refuse what is otherwise taken with a notice: a traveller line whose contract cannot be
    /// read, taken by its score.
    #[arg(long, conflicts_with = "lenient")]
    pub strict: bool,
}

#[derive(Debug, clap::Args)]
pub struct LiveArgs {
    /// The session's Bridgemate database (`.bws`), as Bridgemate Control Software keeps it.
    #[arg(value_name = "SESSION.bws")]
    pub bws: PathBuf,
    /// The event log the results go into (made at the first cycle if it does not exist).
    #[arg(long, value_name = "LOG")]
    pub log: PathBuf,
    /// The results website's directory (only changed pages rewritten; DIR/live.html for the
    /// projector).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seconds between two reads of the BWS.
    #[arg(long, default_value_t = 10, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub every: u64,
    /// Hide the standings on the projector page during the last N rounds.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub hide_last: u32,
    /// Language of the pages.
    #[arg(long, default_value = "en", value_parser = ["en", "pl"])]
    pub lang: String,
    /// Stop after N cycles (default: when the session's last board is entered, or Ctrl-C).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub cycles: Option<u64>,
    /// Neither read nor leave the audit cache and solved deals.
    #[arg(long)]
    pub no_cache: bool,
}

/// How `bulletin` and `publish` render.
#[derive(clap::Args, Debug, Clone)]
pub struct Render {
    /// Language of the labels.
    #[arg(long, default_value = "en", value_parser = ["en", "pl"])]
    pub lang: String,
    /// The typst program (default: FREKANS_TYPST, PATH, then ~/.cache/frekans/tools/bin/typst).
    #[arg(long, value_name = "PATH")]
    pub typst: Option<PathBuf>,
    /// Do not leave the log's audit cache, nor read or keep solved deals (as
    /// `score --no-cache`).
    #[arg(long)]
    pub no_cache: bool,
}

/// The kinds `synth --kind` takes: every kind, by the name a session declares it with.
fn synth_kinds() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(frekans::kind::ALL.map(|k| k.declared))
}

/// The forms `synth --form` takes: those synth writes (`synth::SynthForm`), by their names.
fn synth_forms() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(frekans::synth::SynthForm::ALL.map(|f| f.name()))
}

/// The help of `import --form`: every form, from the one list (`score::form`).
fn import_form_help() -> String {
    let forms = frekans::score::Form::listed(|_| true, frekans::score::Form::name, "or");
    format!("The scoring form where the file does not say it ({forms})")
}
