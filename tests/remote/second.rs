//! The read and write tests again against a second S3 server, s3s-fs
//! (the s3s crate over a folder), so tftensor is not tuned to moto: the
//! same children, the same counts. Skipped without its binary (see
//! `servers::s3s_fs`).

use super::servers::s3s_fs;
use super::{counts, reads, writes};

#[test]
fn objects_are_read_by_range_listed_and_globbed() {
    if let Some(s) = s3s_fs() {
        reads::objects_are_read_on(s);
    }
}

#[test]
fn missing_objects_and_buckets_are_not_found_naming_the_url() {
    if let Some(s) = s3s_fs() {
        reads::missing_objects_on(s);
    }
}

#[test]
fn a_safetensors_header_takes_one_request() {
    if let Some(s) = s3s_fs() {
        reads::safetensors_header_on(s);
    }
}

#[test]
fn tfrecords_by_number_take_one_request_each_and_streams_read_ahead() {
    if let Some(s) = s3s_fs() {
        reads::tfrecords_on(s);
    }
}

#[test]
fn a_sharded_checkpoint_lists_reads_and_converts_in_bounded_requests_and_bytes() {
    if let Some(s) = s3s_fs() {
        counts::counts_on(s);
    }
}

#[test]
fn uploads_appear_whole_and_failed_ones_are_aborted() {
    if let Some(s) = s3s_fs() {
        writes::uploads_on(s);
    }
}
