//! Shared by the bench suites: run mode, criterion config, data.
//!
//! Three modes, so `cargo test --all-targets` stays cheap and a short run
//! fits the 5-minute budget:
//! * `Full` (`cargo bench`): the sizes of the issue, ~2 s per measurement.
//! * `Short` (`TFTENSOR_BENCH_SHORT=1 cargo bench`): the same sizes, 10
//!   samples and ~0.5 s per measurement.
//! * `Test` (`cargo test --all-targets`, i.e. no `--bench` flag): criterion
//!   runs each routine once; large sizes shrink so debug builds stay quick.

#![allow(dead_code)] // each suite uses a different part

use std::time::Duration;

use criterion::Criterion;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Full,
    Short,
    Test,
}

pub fn mode() -> Mode {
    let args: Vec<String> = std::env::args().collect();
    let bench = args.iter().any(|a| a == "--bench");
    let test = args.iter().any(|a| a == "--test");
    if !bench || test {
        Mode::Test
    } else if std::env::var("TFTENSOR_BENCH_SHORT").is_ok_and(|v| !v.is_empty() && v != "0") {
        Mode::Short
    } else {
        Mode::Full
    }
}

/// `full` bytes/elements in bench modes, `test` under `cargo test`.
pub fn size(full: usize, test: usize) -> usize {
    if mode() == Mode::Test { test } else { full }
}

pub fn config() -> Criterion {
    let c = Criterion::default().without_plots().noise_threshold(0.03);
    match mode() {
        Mode::Full => c
            .sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2)),
        Mode::Short | Mode::Test => c
            .sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_millis(500)),
    }
}

/// Deterministic, non-trivial f32 data (no NaN, no denormals).
pub fn f32_data(n: usize) -> Vec<f32> {
    (0..n).map(|i| ((i % 1013) as f32) * 0.25 - 100.0).collect()
}

/// Deterministic int32 data: 0..31372, so varints of 1 to 3 bytes (the
/// same values as benches/peers/tf_int32_field.py).
pub fn i32_data(n: usize) -> Vec<i32> {
    (0..n).map(|i| (i % 1013) as i32 * 31).collect()
}

/// `n` bytes of deterministic data.
pub fn byte_data(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i.wrapping_mul(31) >> 3) as u8).collect()
}

pub const KIB: usize = 1024;
pub const MIB: usize = 1024 * 1024;

/// Human label for a byte count: "1KiB", "64MiB".
pub fn bytes_label(n: usize) -> String {
    if n >= MIB && n % MIB == 0 {
        format!("{}MiB", n / MIB)
    } else if n >= KIB && n % KIB == 0 {
        format!("{}KiB", n / KIB)
    } else {
        format!("{n}B")
    }
}

/// Whether a name passes the command line's filter (`cargo bench -p tftensor-benches --bench
/// views -- FILTER`): here `|`-separated substrings, a subset of the
/// regex criterion applies to its own ids.
fn selected(name: &str) -> bool {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    match filter {
        None => true,
        Some(f) => f
            .split('|')
            .any(|alt| name.contains(alt.trim_matches(|c| c == '^' || c == '$'))),
    }
}

/// `TFTENSOR_BENCH_PAIRED_ONLY=1`: skip the criterion measurements and run
/// only the interleaved A/B ratios (what BENCHMARKS.md reports).
pub fn paired_only() -> bool {
    std::env::var("TFTENSOR_BENCH_PAIRED_ONLY").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `TFTENSOR_BENCH_ROUNDS=N`: A/B rounds per pair (default 51, short 15).
fn rounds_override() -> Option<usize> {
    std::env::var("TFTENSOR_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
}

/// Interleaved A/B ratio of `a`'s time to `b`'s: rounds of `n` calls of
/// each, alternating which goes first, and the median of the per-round
/// ratios. Load from other processes drifts over seconds, which skews two
/// criterion benchmarks run one after the other; within a round both see
/// the same load. Written to `target/criterion/paired/<name>.json` for
/// benches/report.py (not in test mode).
pub fn paired<A: FnMut() -> RA, RA, B: FnMut() -> RB, RB>(
    name: &str,
    mut a: A,
    mut b: B,
) -> Option<f64> {
    use std::hint::black_box;
    use std::time::Instant;

    let rounds = match mode() {
        Mode::Test => return None,
        _ if rounds_override().is_some() => rounds_override().unwrap_or(15),
        Mode::Full => 51,
        Mode::Short => 15,
    };
    if !selected(name) {
        return None;
    }
    // Enough calls per round for ~10 ms of work (longer than a scheduler
    // slice, so one preemption weighs less), at least one.
    black_box(a());
    black_box(b());
    let t0 = Instant::now();
    black_box(a());
    let one = t0.elapsed().as_secs_f64().max(1e-9);
    let n = ((1e-2 / one) as usize).clamp(1, 1_000_000);
    let cpu = cpu_time_mode();
    let time = |f: &mut dyn FnMut()| {
        let (t, c) = (Instant::now(), cpu_seconds());
        for _ in 0..n {
            f();
        }
        if cpu {
            cpu_seconds() - c
        } else {
            t.elapsed().as_secs_f64()
        }
    };
    let mut ratios = Vec::with_capacity(rounds);
    let (mut ta_all, mut tb_all) = (Vec::new(), Vec::new());
    for r in 0..rounds {
        let (ta, tb) = if r % 2 == 0 {
            let ta = time(&mut || drop(black_box(a())));
            (ta, time(&mut || drop(black_box(b()))))
        } else {
            let tb = time(&mut || drop(black_box(b())));
            (time(&mut || drop(black_box(a()))), tb)
        };
        ratios.push(ta / tb);
        ta_all.push(ta / n as f64);
        tb_all.push(tb / n as f64);
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let q = |v: &Vec<f64>, p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    let ratio = med(&mut ratios);
    let (ta, tb) = (med(&mut ta_all), med(&mut tb_all));
    println!(
        "paired{} {name}: ratio {ratio:.4} (IQR {:.4}..{:.4}), {:.1} ns vs {:.1} ns, {rounds} rounds of {n}",
        if cpu { " (cpu time)" } else { "" },
        q(&ratios, 0.25),
        q(&ratios, 0.75),
        ta * 1e9,
        tb * 1e9
    );
    let dir = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/criterion/paired"
    ));
    let _ = std::fs::create_dir_all(dir);
    let file = dir.join(format!("{}.json", name.replace('/', "__")));
    let json = format!(
        "{{\"name\":\"{name}\",\"ratio\":{ratio},\"q1\":{},\"q3\":{},\"a_ns\":{},\"b_ns\":{},\"rounds\":{rounds},\"n\":{n}}}\n",
        q(&ratios, 0.25),
        q(&ratios, 0.75),
        ta * 1e9,
        tb * 1e9
    );
    let _ = std::fs::write(file, json);
    Some(ratio)
}

/// Whether [`paired`] times CPU time instead of wall time
/// (`TFTENSOR_BENCH_CPU_TIME=1`). On a machine with more runnable jobs than
/// cores, a call longer than a scheduler slice is preempted and its wall
/// time grows with the load while a short one's does not; the process's
/// CPU time (user + system, so page faults count) does not see the
/// preemption.
pub fn cpu_time_mode() -> bool {
    std::env::var("TFTENSOR_BENCH_CPU_TIME").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// CPU seconds this process has used (`CLOCK_PROCESS_CPUTIME_ID`).
pub fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// [`paired`] of `ours` against a memcpy of `src` into a warm buffer
/// (`<group>/<path>_vs_memcpy/<label>`) and against `src.to_vec()`
/// (`..._vs_alloc_memcpy/...`).
pub fn paired_vs_memcpy<R>(
    group: &str,
    path: &str,
    label: &str,
    mut ours: impl FnMut() -> R,
    src: &[u8],
) {
    use std::hint::black_box;
    if mode() == Mode::Test {
        return;
    }
    let mut dst = vec![0u8; src.len()];
    paired(
        &format!("{group}/{path}_vs_memcpy/{label}"),
        &mut ours,
        || black_box(&mut dst[..]).copy_from_slice(black_box(src)),
    );
    paired(
        &format!("{group}/{path}_vs_alloc_memcpy/{label}"),
        &mut ours,
        || black_box(src).to_vec(),
    );
}
