//! The `mrtr-class` command: `mrtr-class serve` runs a class, `mrtr-class token` gives it a
//! new instructor token (docs/CLASSROOM.md). `mrtr class …` runs it too.

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use mrtr_class::ClassArgs;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = ClassArgs::parse();
    let ran = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
        .and_then(|rt| rt.block_on(mrtr_class::run(args)));
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        // Said the way clap says a bad argument: the sentence, then exit code 2.
        Err(why) => ClassArgs::command().error(ErrorKind::ValueValidation, why).exit(),
    }
}
