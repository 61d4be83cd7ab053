//! `saved_model_cli show` without TensorFlow: prints what TF 2.21's
//! `saved_model_cli show --all --dir DIR` prints before its "Concrete
//! Functions" section (ops sorted), or with `--list` only the signatures.
//!
//! ```text
//! cargo run --release --example saved_model_show -- DIR [--list]
//! ```
//! Used by benches/peers/tf_saved_model_cli.py to time both CLIs.

use tftensor::saved_model::SavedModel;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.iter().find(|a| !a.starts_with("--")) else {
        return Err("usage: saved_model_show DIR [--list]".into());
    };
    let model = SavedModel::open(dir)?;
    if args.iter().any(|a| a == "--list") {
        for mg in model.meta_graphs() {
            for (key, sig) in mg.signatures() {
                println!("{} {key}: {}", mg.tags().join(","), sig.method_name());
            }
        }
    } else {
        print!("{}", model.show_all()?);
    }
    Ok(())
}
