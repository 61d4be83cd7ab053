//! `AWS_PROFILE`: the static keys, region and endpoint of a profile in
//! `~/.aws/credentials` and `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE`
//! and `AWS_CONFIG_FILE`), as the AWS CLI reads them. Only static keys:
//! SSO, `credential_process` and role assumption are not supported.
//! Variables set in the environment win over the profile.

use std::path::PathBuf;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};

use crate::error::Result;

/// The profile's settings applied where the environment set none. A
/// profile named by `AWS_PROFILE` must exist; the `default` profile is
/// read only when its files exist.
pub(crate) fn apply(mut b: AmazonS3Builder) -> Result<AmazonS3Builder> {
    let named = std::env::var("AWS_PROFILE").ok().filter(|p| !p.is_empty());
    let profile = named.clone().unwrap_or_else(|| "default".to_owned());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let path = |var: &str, rel: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(rel)))
    };
    let mut found = false;
    let mut set = |b: AmazonS3Builder, pairs: Vec<(String, String)>| {
        let mut b = b;
        for (k, v) in pairs {
            let key = match k.as_str() {
                "aws_access_key_id" => AmazonS3ConfigKey::AccessKeyId,
                "aws_secret_access_key" => AmazonS3ConfigKey::SecretAccessKey,
                "aws_session_token" => AmazonS3ConfigKey::Token,
                "region" => AmazonS3ConfigKey::Region,
                "endpoint_url" => AmazonS3ConfigKey::Endpoint,
                _ => continue,
            };
            found = true;
            if b.get_config_value(&key).is_none() {
                b = b.with_config(key, v);
            }
        }
        b
    };
    if let Some(p) = path("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials") {
        b = set(b, section(&p, &profile));
    }
    if let Some(p) = path("AWS_CONFIG_FILE", ".aws/config") {
        let name = if profile == "default" {
            profile.clone()
        } else {
            format!("profile {profile}")
        };
        b = set(b, section(&p, &name));
    }
    if let (Some(named), false) = (named, found) {
        return Err(crate::Error::InvalidArgument(format!(
            "AWS_PROFILE={named}: no such profile with static keys in the AWS credentials or config file"
        )));
    }
    Ok(b)
}

/// The `key = value` pairs of `[name]` in an INI file (none when the file
/// or the section is missing).
fn section(path: &std::path::Path, name: &str) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    parse_section(&text, name)
}

fn parse_section(text: &str, name: &str) -> Vec<(String, String)> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = head.trim() == name;
            continue;
        }
        if inside {
            if let Some((k, v)) = line.split_once('=') {
                out.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::parse_section;

    #[test]
    fn sections_of_the_aws_files() {
        let text = "[default]\naws_access_key_id = A\n# note\n[profile dev]\nregion=eu-west-1\nendpoint_url = http://127.0.0.1:9000\n";
        assert_eq!(
            parse_section(text, "default"),
            [("aws_access_key_id".to_owned(), "A".to_owned())]
        );
        assert_eq!(parse_section(text, "profile dev").len(), 2);
        assert!(parse_section(text, "other").is_empty());
    }
}
