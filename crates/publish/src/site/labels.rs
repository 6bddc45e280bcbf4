//! The website's labels in its language: the bulletin's (`report::model::labels`) and the few
//! only the website shows.

use std::collections::BTreeMap;

/// Every label of the site in `lang` (`en` or `pl`).
pub fn labels(lang: &str) -> BTreeMap<&'static str, &'static str> {
    let mut l = crate::report::model::labels(lang);
    let site: &[(&str, &str)] = match lang {
        "pl" => &[
            ("results", "Wyniki"),
            ("index", "Strona główna"),
            ("site_nav", "Nawigacja"),
            ("find_card", "Karty wyników par i drużyn"),
            ("sessions", "Sesje"),
            ("team", "Drużyna"),
            ("scorecard", "Karta wyników"),
            ("side", "Linia"),
            ("opponents", "Przeciwnicy"),
            ("points", "Zapis"),
            ("score", "Wynik"),
            ("running", "Narastająco"),
            ("match", "Mecz"),
            ("home", "Gospodarze"),
            ("away", "Goście"),
            ("room", "Pokój"),
            ("line", "Linia"),
            ("adjusted", "Wyniki sędziowskie"),
            ("components", "Składniki (waga × (zapis NS → wynik))"),
            (
                "components_team",
                "Składniki (waga × zapis NS w tym pokoju)",
            ),
            (
                "cut",
                "Pokazano 20 najlepszych i 20 najgorszych wyników NS z",
            ),
            ("previous", "poprzednie"),
            ("next", "następne"),
            ("hands", "Rozkład kart"),
            ("spades", "piki"),
            ("hearts", "kiery"),
            ("diamonds", "kara"),
            ("clubs", "trefle"),
            ("superseded_by", "zastąpione przez"),
            ("made_by", "Wyniki policzone programem frekans."),
            ("pairs_at_table", "Pary"),
            ("pages", "Strony"),
            (
                "adjusted_cut",
                "Pokazano pierwsze 100 wyników sędziowskich z",
            ),
        ],
        _ => &[
            ("results", "Results"),
            ("index", "Home"),
            ("site_nav", "Site"),
            ("find_card", "Scorecards of the pairs and teams"),
            ("sessions", "Sessions"),
            ("team", "Team"),
            ("scorecard", "Scorecard"),
            ("side", "Side"),
            ("opponents", "Opponents"),
            ("points", "Points"),
            ("score", "Score"),
            ("running", "Running total"),
            ("match", "Match"),
            ("home", "Home"),
            ("away", "Away"),
            ("room", "Room"),
            ("line", "Line"),
            ("adjusted", "Adjusted scores"),
            ("components", "Components (weight × (NS points → score))"),
            (
                "components_team",
                "Components (weight × NS points in this room)",
            ),
            ("cut", "The 20 best and 20 worst NS results are shown of"),
            ("previous", "previous"),
            ("next", "next"),
            ("hands", "The hands"),
            ("spades", "spades"),
            ("hearts", "hearts"),
            ("diamonds", "diamonds"),
            ("clubs", "clubs"),
            ("superseded_by", "superseded by"),
            ("made_by", "Results scored by frekans."),
            ("pairs_at_table", "Pairs"),
            ("pages", "Pages"),
            ("adjusted_cut", "The first 100 adjusted scores are shown of"),
        ],
    };
    l.extend(site.iter().copied());
    l.extend(crate::report::seated::labels(lang).iter().copied());
    l
}
