//! `tftensor`: inspect, show, convert and diff TensorFlow's tensor files
//! (every format of the library's rows; `--help` lists them).
//!
//! Errors are one line on stderr that names the file, with exit status 2.

// The workspace's lints (Cargo.toml) hold here too; like the library, a
// front never unwraps, panics or indexes outside its tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable
    )
)]

mod chart;
mod commands;
mod error;
mod numeric;
mod progress;
mod source;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::commands::{convert, diff, index, inspect, plot, show};

/// Inspect, show, convert and diff TensorFlow's tensor files.
///
/// Reads TF checkpoints (a prefix such as `dir/ckpt-3`, a checkpoint
/// directory, or a SavedModel directory) and the other formats listed
/// below. The format is detected from the path and the file's first bytes;
/// --format overrides it.
#[derive(Parser, Debug)]
#[command(name = "tftensor", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Inspect(inspect::InspectArgs),
    Show(show::ShowArgs),
    Convert(convert::ConvertArgs),
    Diff(diff::DiffArgs),
    Plot(plot::PlotArgs),
    Index(index::IndexArgs),
    /// Print a shell completion script: `tftensor completions bash >
    /// /etc/bash_completion.d/tftensor` (or zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `tftensor man > tftensor.1`.
    Man,
}

/// Exit status for errors (as for `diff`'s "trouble").
const EXIT_ERROR: u8 = 2;

fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    match &cli.command {
        Command::Inspect(args) => inspect::run(args)?,
        Command::Show(args) => show::run(args)?,
        Command::Convert(args) => convert::run(args)?,
        Command::Plot(args) => plot::run(args)?,
        Command::Index(args) => index::run(args)?,
        Command::Completions { shell } => {
            // Generated into memory first: a closed stdout is then an
            // error here, not a panic inside the generator.
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "tftensor", &mut script);
            write_out(&script)?;
        }
        Command::Man => {
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command()).render(&mut page)?;
            write_out(&page)?;
        }
        Command::Diff(args) => {
            return Ok(if diff::run(args)? {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            });
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `bytes` to stdout.
fn write_out(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = commands::stdout();
    out.write_all(bytes)?;
    out.flush()
}

/// Whether the error is a closed stdout (`tftensor show ... | head`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The examples after the top-level help.
const EXAMPLES: &str = "Examples:\n  \
    tftensor inspect training/ckpt-3\n  \
    tftensor convert training/ckpt-3 model.safetensors\n  \
    tftensor diff training/ckpt-3 model.safetensors";

/// The command line, its format lists taken from the library's rows.
fn command() -> clap::Command {
    Cli::command()
        .after_help(format!("{}\n{EXAMPLES}", source::formats_help()))
        .mut_subcommand("convert", |c| {
            let examples = c
                .get_after_help()
                .map(ToString::to_string)
                .unwrap_or_default();
            c.after_help(format!("{}\n\n{examples}", source::output_formats_help()))
        })
}

fn main() -> ExitCode {
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // A bug must still end as one line and status 2, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!(
            "tftensor: internal error (please report): {}",
            msg.replace('\n', " ")
        );
    }));
    match std::panic::catch_unwind(|| run(&cli)) {
        Ok(Ok(code)) => code,
        Ok(Err(err)) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Ok(Err(err)) => {
            eprintln!("tftensor: {}", err.to_string().replace(['\n', '\r'], " "));
            ExitCode::from(EXIT_ERROR)
        }
        Err(_) => ExitCode::from(EXIT_ERROR),
    }
}
