//! The `mrtr` command: `mrtr sim`, `mrtr serve`, `mrtr call`, `mrtr bench`, `mrtr probe`,
//! `mrtr lint`, and `mrtr class`, which runs `mrtr-class`.

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};
use mrtr::{bench, call, lint, probe, serve, sim};
use std::process::ExitCode;

/// Every request's JSON values and strings live for microseconds: mimalloc serves them with a
/// fraction of the CPU glibc's allocator spends (docs/ARCHITECTURE.md, Libraries).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The lab's multi round-trip requests, for real: simulate, serve, call.
#[derive(Debug, Parser)]
#[command(name = "mrtr", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a scenario of the simulated cluster and print its raw JSON-RPC lines.
    Sim(sim::SimArgs),
    /// Serve the lab's server core over stdio or Streamable HTTP.
    Serve(serve::ServeArgs),
    /// Call a tool as an honest MCP client, answering every round.
    Call(call::CallArgs),
    /// Drive full round trips at a server and print round trips per second and latency.
    Bench(bench::BenchArgs),
    /// Try the lab's attacks on a server's tickets and report what got through.
    Probe(probe::ProbeArgs),
    /// Read a transcript (HAR, a log, JSON-RPC lines): each operation's rounds, and what
    /// breaks the MRTR page.
    Lint(lint::LintArgs),
    /// Run a class: students join with a code, their progress is verified by replaying it,
    /// and the instructor sees it live. Runs `mrtr-class` (built beside `mrtr` by
    /// `cargo build -p mrtr-class`) with the same arguments.
    #[command(disable_help_flag = true)]
    Class {
        /// What `mrtr-class` takes: `serve …`, `token …`, `--help`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<std::ffi::OsString>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `mrtr probe` says a usage error with exit code 3 (2 means inconclusive there).
        Err(e) if e.use_stderr() && std::env::args().nth(1).as_deref() == Some("probe") => {
            let _ = e.print();
            return ExitCode::from(mrtr_probe::exit::USAGE);
        }
        Err(e) => e.exit(),
    };
    let outcome = match cli.command {
        Command::Sim(args) => sim::run(args).map(|()| ExitCode::SUCCESS),
        Command::Serve(args) => runtime_with(args.threads)
            .and_then(|rt| {
                let served = rt.block_on(serve::run(args));
                // stdin is read on a blocking thread that a stop cannot interrupt: do not wait for it.
                rt.shutdown_background();
                served
            })
            .map(|()| ExitCode::SUCCESS),
        Command::Call(args) => runtime().and_then(|rt| rt.block_on(call::run(args))),
        Command::Probe(args) => runtime().and_then(|rt| rt.block_on(probe::run(args))),
        Command::Lint(args) => Ok(lint::run(&args)),
        Command::Class { args } => class(&args),
        Command::Bench(args) => runtime().and_then(|rt| rt.block_on(bench::run(args))).map(|()| ExitCode::SUCCESS),
    };
    // Said the way clap says a bad argument: the sentence, then exit code 2.
    outcome.unwrap_or_else(|why| Cli::command().error(ErrorKind::ValueValidation, why).exit())
}

/// `mrtr class ARGS…`: `mrtr-class ARGS…`, from the folder this `mrtr` was built in, with its
/// exit status.
fn class(args: &[std::ffi::OsString]) -> Result<ExitCode, String> {
    let beside = std::env::current_exe().ok().and_then(|exe| exe.parent().map(|dir| dir.join("mrtr-class")));
    let command = beside.filter(|path| path.is_file()).unwrap_or_else(|| "mrtr-class".into());
    let status = std::process::Command::new(&command).args(args).status().map_err(|e| {
        format!(
            "{}: {e}; the class server is a command of its own: cargo build --release -p mrtr-class",
            command.display()
        )
    })?;
    Ok(ExitCode::from(status.code().map_or(1, |code| u8::try_from(code).unwrap_or(1))))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    runtime_with(None)
}

/// A runtime with `threads` worker threads (one per core without it).
fn runtime_with(threads: Option<usize>) -> Result<tokio::runtime::Runtime, String> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = threads {
        builder.worker_threads(threads.max(1));
    }
    builder.enable_all().build().map_err(|e| e.to_string())
}
