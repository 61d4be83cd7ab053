//! Thread and unwind safety: the public types are `Send + Sync` and the
//! tensors `UnwindSafe + RefUnwindSafe` (checked at compile time), and
//! copy-on-write keeps every reader's view unchanged while other
//! threads write through their own handles.

use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::{Arc, Barrier};
use std::thread;

use bytes::Bytes;
use tftensor::{
    DataType, Error, PartialTensorShape, ResourceHandle, Tensor, TensorShape, TrackingAllocator,
    TypedTensor, Variant,
};

/// Compiles only if `T: Send + Sync`.
const fn assert_send_sync<T: Send + Sync>() {}

// Evaluated at compile time: a type that lost `Send` or `Sync` (say, by
// gaining an `Rc` or a `Cell`) breaks the build of this test file.
const _: () = {
    assert_send_sync::<Tensor>();
    assert_send_sync::<TypedTensor<f32>>();
    assert_send_sync::<TypedTensor<Bytes>>();
    assert_send_sync::<TypedTensor<Variant>>();
    assert_send_sync::<TypedTensor<ResourceHandle>>();
    assert_send_sync::<DataType>();
    assert_send_sync::<TensorShape>();
    assert_send_sync::<PartialTensorShape>();
    assert_send_sync::<Variant>();
    assert_send_sync::<ResourceHandle>();
    assert_send_sync::<Error>();
    assert_send_sync::<TrackingAllocator>();
};

const THREADS: usize = 4;
const ROUNDS: usize = 200;
const ROWS: i64 = 16;
const COLS: i64 = 8;

fn base_f32() -> Tensor {
    let n = (ROWS * COLS) as usize;
    Tensor::from_vec([ROWS, COLS], (0..n).map(|i| i as f32).collect()).unwrap()
}

fn base_strings() -> Tensor {
    let n = (ROWS * COLS) as usize;
    let v: Vec<Bytes> = (0..n).map(|i| Bytes::from(format!("s{i}"))).collect();
    Tensor::from_vec([ROWS, COLS], v).unwrap()
}

/// Each thread repeatedly takes clones, slices and sub-slices of a shared
/// tensor, writes its own marker through each handle (which must copy, since
/// the buffer is shared), and checks that the shared tensor, every slice it
/// holds, and every other thread's writes stay invisible to it.
#[test]
fn readers_never_see_other_threads_writes_f32() {
    let base = Arc::new(base_f32());
    let pristine = base.deep_copy().unwrap();
    let barrier = Arc::new(Barrier::new(THREADS));
    thread::scope(|s| {
        for id in 0..THREADS {
            let base = Arc::clone(&base);
            let pristine = &pristine;
            let barrier = Arc::clone(&barrier);
            s.spawn(move || {
                let marker = -1.0 - id as f32;
                barrier.wait();
                for round in 0..ROUNDS {
                    let row = (round as i64 + id as i64) % ROWS;
                    // Readers: a clone, a slice and a sub-slice of the shared tensor.
                    let reader = (*base).clone();
                    let reader_slice = base.slice(row, ROWS).unwrap();
                    let reader_row = base.sub_slice(row).unwrap();

                    // Writers: this thread's own handles on the same buffer.
                    let mut mine = (*base).clone();
                    let mut mine_slice = base.slice(row, ROWS).unwrap();
                    let mut mine_row = base.sub_slice(row).unwrap();
                    mine.as_mut_slice::<f32>().unwrap()[0] = marker;
                    mine_slice.as_mut_slice::<f32>().unwrap()[0] = marker;
                    for x in mine_row.as_mut_slice::<f32>().unwrap() {
                        *x = marker;
                    }

                    // Every write copied: nothing shares with the base any more.
                    assert!(!mine.shares_buffer_with(&base));
                    assert!(!mine_slice.shares_buffer_with(&base));
                    assert!(!mine_row.shares_buffer_with(&base));

                    // The writer sees exactly its own change.
                    let m = mine.as_slice::<f32>().unwrap();
                    assert_eq!(m[0], marker);
                    assert_eq!(&m[1..], &pristine.as_slice::<f32>().unwrap()[1..]);
                    assert_eq!(mine_slice.as_slice::<f32>().unwrap()[0], marker);
                    assert!(
                        mine_row
                            .as_slice::<f32>()
                            .unwrap()
                            .iter()
                            .all(|&x| x == marker)
                    );

                    // The readers see nothing.
                    assert_eq!(reader, *pristine);
                    assert_eq!(reader_slice, pristine.slice(row, ROWS).unwrap());
                    assert_eq!(reader_row, pristine.sub_slice(row).unwrap());
                    assert_eq!(*base, *pristine);

                    // A handle that became unique writes in place, and the
                    // readers taken before still see the original.
                    let p = mine.data_ptr();
                    mine.as_mut_slice::<f32>().unwrap()[1] = marker;
                    assert_eq!(mine.data_ptr(), p);
                    assert_eq!(reader.as_slice::<f32>().unwrap()[1], 1.0);
                }
            });
        }
    });
    assert_eq!(*base, pristine);
    assert!(Arc::try_unwrap(base).unwrap().ref_count_is_one());
}

/// The same for strings, which live in a typed store rather than raw bytes.
#[test]
fn readers_never_see_other_threads_writes_strings() {
    let base = base_strings();
    let pristine = base.deep_copy().unwrap();
    let barrier = Barrier::new(THREADS);
    thread::scope(|s| {
        for id in 0..THREADS {
            let (base, pristine, barrier) = (&base, &pristine, &barrier);
            s.spawn(move || {
                let marker = Bytes::from(vec![0xff, id as u8]); // not UTF-8
                barrier.wait();
                for round in 0..ROUNDS / 4 {
                    let row = (round as i64 + id as i64) % ROWS;
                    let reader_row = base.sub_slice(row).unwrap();
                    let mut mine = base.slice(row, row + 1).unwrap();
                    mine.as_mut_slice::<Bytes>().unwrap()[COLS as usize - 1] = marker.clone();
                    assert_eq!(mine.as_slice::<Bytes>().unwrap()[COLS as usize - 1], marker);
                    assert_eq!(reader_row, pristine.sub_slice(row).unwrap());
                    assert_eq!(*base, *pristine);
                }
            });
        }
    });
    assert_eq!(base, pristine);
}

/// Handles move between threads: one thread hands its slices to others,
/// which write to them while the first keeps reading; then the owners drop
/// in a different order than they were made. Refcounts must balance so the
/// last owner writes in place.
#[test]
fn handles_sent_across_threads_copy_on_write_and_drop_cleanly() {
    let base = base_f32();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Tensor)>();
    let receivers: Vec<_> = (0..THREADS)
        .map(|_| std::sync::mpsc::channel::<Tensor>())
        .collect();
    let senders: Vec<_> = receivers.iter().map(|(s, _)| s.clone()).collect();
    thread::scope(|s| {
        let mut joins = Vec::new();
        for (id, (_, rx_t)) in receivers.into_iter().enumerate() {
            let tx = tx.clone();
            joins.push(s.spawn(move || {
                for mut t in rx_t.iter() {
                    let before = t.clone();
                    t.as_mut_slice::<f32>().unwrap()[0] = 1000.0 + id as f32;
                    assert_ne!(t, before);
                    tx.send((id, t)).unwrap();
                }
            }));
        }
        drop(tx);
        for round in 0..ROUNDS {
            let row = round as i64 % ROWS;
            senders[round % THREADS]
                .send(base.sub_slice(row).unwrap())
                .unwrap();
        }
        drop(senders);
        let mut got = 0;
        for (id, t) in rx.iter() {
            assert_eq!(t.as_slice::<f32>().unwrap()[0], 1000.0 + id as f32);
            assert!(!t.shares_buffer_with(&base));
            got += 1;
        }
        assert_eq!(got, ROUNDS);
    });
    assert_eq!(base, base_f32());
    assert!(base.ref_count_is_one());
}

/// The typed facade: clones written through `IndexMut`, `get_mut` and
/// `as_mut_slice` copy on write, and typed views of slices of the shared
/// tensor keep their values while other threads write.
#[test]
fn typed_tensors_copy_on_write_across_threads() {
    let base = TypedTensor::<f32>::try_from(base_f32()).unwrap();
    let pristine = base.deep_copy().unwrap();
    let barrier = Barrier::new(THREADS);
    thread::scope(|s| {
        for id in 0..THREADS {
            let (base, pristine, barrier) = (&base, &pristine, &barrier);
            s.spawn(move || {
                let marker = 100.0 + id as f32;
                barrier.wait();
                for round in 0..ROUNDS {
                    let row = (round + id) % ROWS as usize;
                    let reader = base.clone();
                    let reader_row = TypedTensor::<f32>::try_from(
                        base.as_tensor().sub_slice(row as i64).unwrap(),
                    )
                    .unwrap();
                    let mut mine = base.clone();
                    mine[[row, 0]] = marker;
                    *mine.get_mut(&[row, 1]).unwrap() = marker;
                    mine.as_mut_slice().unwrap()[2] = marker;
                    assert_eq!(mine[[row, 0]], marker);
                    assert_eq!(mine[[row, 1]], marker);
                    assert_eq!(mine.as_slice()[2], marker);
                    assert_eq!(reader, *pristine);
                    assert_eq!(
                        reader_row.as_slice(),
                        pristine
                            .as_tensor()
                            .sub_slice(row as i64)
                            .unwrap()
                            .as_slice::<f32>()
                            .unwrap()
                    );
                    assert_eq!(*base, *pristine);
                }
            });
        }
    });
    assert_eq!(base, pristine);
}

#[test]
fn tensors_are_unwind_safe() {
    fn check<T: UnwindSafe + RefUnwindSafe>() {}
    check::<Tensor>();
    check::<TypedTensor<f32>>();
    check::<TypedTensor<Bytes>>();
    check::<TypedTensor<tftensor::Variant>>();
    let t = Tensor::from(1.0f32);
    let r = std::panic::catch_unwind(|| t.scalar::<f32>().unwrap()[()]);
    assert_eq!(r.unwrap(), 1.0);
}
