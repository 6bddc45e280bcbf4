//! The command line (clap). No bridge knowledge here.

use std::path::PathBuf;

use clap::{ArgAction, Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  frekans check events/mazovia-pairs-2026.jsonl
  frekans score events/mazovia-pairs-2026.jsonl --out reports/mazovia-pairs-2026
  frekans explain events/mazovia-pairs-2026.jsonl --session S1 --board 5 --section A
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
