//! The command line (clap). No bridge knowledge here.

use std::path::PathBuf;

use clap::{ArgAction, Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  frekans check events/mazovia-pairs-2026.jsonl
  frekans score events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026
  frekans explain events/mazovia-pairs-2026.jsonl --session S1 --board 5 --section A
  frekans score events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026 --dd
  frekans score big.jsonl --out reports/big --threads 1 -v

Exit status: 0 success; 2 the log is invalid (every problem printed, nothing written);
1 anything else went wrong.";

#[derive(Debug, Parser)]
#[command(name = "frekans", version, about = "Score duplicate-bridge championships from an append-only event log", long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    /// More detail on standard error (-v: stage timings, -vv: debug).
    #[arg(short, long, action = ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Print nothing but errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Worker threads for scoring boards (default: one per core). Results do not depend on it.
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,
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
        /// Language of the labels.
        #[arg(long, default_value = "en", value_parser = ["en", "pl"])]
        lang: String,
        /// The typst program (default: FREKANS_TYPST, PATH, then ~/.cache/frekans/tools/bin/typst).
        #[arg(long, value_name = "PATH")]
        typst: Option<PathBuf>,
    },
    /// Compare the standings with and without a ruling, or at two points of the log.
    #[command(
        after_help = "Examples:\n  frekans audit events/mazovia-pairs-2026.jsonl --ruling R8\n  frekans audit events/mazovia-pairs-2026.jsonl --ruling R13 --format json\n  frekans audit events/mazovia-pairs-2026.jsonl --as-of 800\n  frekans audit events/mazovia-pairs-2026.jsonl --between 800 1200 --out reports/audit"
    )]
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
        /// `text` (a readable report) or `json` (interface.md's audit object).
        #[arg(long, default_value = "text", value_parser = ["text", "json"])]
        format: String,
        /// Also write audit_standings.parquet and audit_boards.parquet to DIR.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Validate one new event against the whole log and append it durably (seq, time, hash).
    #[command(
        after_help = "Examples:\n  frekans append events/mazovia-pairs-2026.jsonl '{\"type\":\"ruling_withdrawn\",\"ruling\":\"R3\",\"by\":\"Appeals committee\"}'\n  echo '{\"type\":\"correction\",\"result\":41,\"tricks\":9}' | frekans append events/x.jsonl -"
    )]
    Append {
        /// The event log (JSON Lines).
        log: PathBuf,
        /// The event, one JSON object (`-` reads it from standard input).
        event: String,
    },
    /// Move a torn last line (power lost mid-write) to a side file next to the log.
    #[command(after_help = "Example:\n  frekans repair events/mazovia-pairs-2026.jsonl")]
    Repair {
        /// The event log (JSON Lines).
        log: PathBuf,
    },
    /// Validate the log: every error with its line number; exit 0 when clean.
    #[command(after_help = "Example:\n  frekans check events/mazovia-pairs-2026.jsonl")]
    Check {
        /// The event log (JSON Lines).
        log: PathBuf,
    },
    /// Show how one board was scored: frequency tables, adjusted scores, each side's arithmetic.
    #[command(
        after_help = "Example:\n  frekans explain events/mazovia-pairs-2026.jsonl --session S1 --board 5 --section A"
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
    },
}
