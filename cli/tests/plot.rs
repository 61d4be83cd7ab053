//! `tftensor plot`: pictures of known data, checked by their pixels.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_error, stdout_of, tftensor};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(rel)
}

/// Plots into a fresh folder and decodes the PNG.
fn plot_png(args: &[&str]) -> image::RgbImage {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("p.png");
    let st = tftensor()
        .arg("plot")
        .args(args)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run");
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    image::open(&out).expect("a PNG").to_rgb8()
}

fn count(img: &image::RgbImage, want: impl Fn([u8; 3]) -> bool) -> usize {
    img.pixels().filter(|p| want(p.0)).count()
}

/// The run colours, in run order (TensorBoard's palette).
const FIRST: [u8; 3] = [0xff, 0x70, 0x43];
const SECOND: [u8; 3] = [0x00, 0x77, 0xbb];

#[test]
fn a_scalar_series_is_a_line_per_run_in_its_colour() {
    let img = plot_png(&[data("events/runs").to_str().unwrap(), "--tag", "metric"]);
    assert_eq!(img.dimensions(), (960, 540));
    // Runs are sorted: eval/sub first, train second; each line is 2 px wide
    // across most of the plot.
    assert!(
        count(&img, |p| p == FIRST) > 1000,
        "{}",
        count(&img, |p| p == FIRST)
    );
    assert!(count(&img, |p| p == SECOND) > 1000);
    // Where each must be: train rises (its colour in the upper right of
    // the plot area), eval/sub falls (in the lower right).
    let in_box = |x0: u32, y0: u32, x1: u32, y1: u32, c: [u8; 3]| {
        (x0..x1).any(|x| (y0..y1).any(|y| img.get_pixel(x, y).0 == c))
    };
    assert!(in_box(800, 40, 940, 140, SECOND));
    assert!(in_box(800, 400, 940, 500, FIRST));
    assert!(!in_box(800, 40, 940, 140, FIRST));
}

#[test]
fn a_histogram_series_is_drawn_as_distribution_bands() {
    let img = plot_png(&[data("events/tf2").to_str().unwrap(), "--tag", "weights"]);
    // The median line in the run's colour, and much of the plot area in
    // its bands (the colour blended with white: red > green > blue).
    assert!(count(&img, |p| p == FIRST) > 300);
    let banded = count(&img, |[r, g, b]| r > g && g > b && r > 200 && b < 235);
    assert!(banded > 100_000, "{banded}");
}

#[test]
fn a_tensor_histogram_has_bars() {
    let img = plot_png(&[
        data("keras/f16.weights.h5").to_str().unwrap(),
        "layers/dense/vars/0",
        "--bins",
        "5",
    ]);
    let bars = count(&img, |[r, g, b]| b > r && b > g && b > 150);
    assert!(bars > 10_000, "{bars}");
}

#[test]
fn svg_pictures_have_their_text_and_shapes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("h.svg");
    tftensor()
        .args([
            "plot",
            data("events/tf1").to_str().unwrap(),
            "--tag",
            "h",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&out).expect("svg");
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    assert_eq!(svg.matches("<polygon").count(), 4, "the four bands");
    assert!(svg.contains(">\nh\n</text>"), "the title");
}

#[test]
fn what_cannot_be_drawn_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let logs = data("events/tf2");
    let logs = logs.to_str().unwrap();
    assert_error(
        tftensor()
            .args(["plot", logs, "--tag", "note", "-o"])
            .arg(dir.path().join("n.png")),
        &["'note': string values are not numbers"],
    );
    assert_error(
        tftensor()
            .args(["plot", logs, "--tag", "nope", "-o"])
            .arg(dir.path().join("n.png")),
        &["no series tagged 'nope'"],
    );
    assert_error(
        tftensor()
            .args(["plot", logs, "--tag", "loss", "-o"])
            .arg(dir.path().join("n.jpg")),
        &[".png or .svg"],
    );
    assert!(std::fs::read_dir(dir.path()).expect("dir").next().is_none());
}

#[test]
fn show_draws_a_sparkline_of_a_scalar_series() {
    let out = tftensor()
        .args([
            "show",
            data("events/tf2").to_str().unwrap(),
            "--tag",
            "loss",
        ])
        .output()
        .expect("run");
    assert!(out.status.success());
    let text = stdout_of(&out);
    assert!(text.contains("\n█▃▂▁  0.25 .. 1\n"), "{text}");
    // Steps get none.
    assert_eq!(text.matches('█').count(), 1);
}

#[test]
fn completions_and_the_man_page_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish"] {
        let out = tftensor()
            .args(["completions", shell])
            .output()
            .expect("run");
        assert!(out.status.success());
        let script = stdout_of(&out);
        for sub in ["inspect", "show", "convert", "diff", "plot"] {
            assert!(script.contains(sub), "{shell}: {sub}");
        }
    }
    let out = tftensor().arg("man").output().expect("run");
    let page = stdout_of(&out);
    assert!(page.contains(".TH tftensor 1"), "{page}");
    assert!(
        page.contains("tftensor\\-plot(1)") || page.contains("plot"),
        "{page}"
    );
}
