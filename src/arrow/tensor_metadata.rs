//! The `ARROW:extension:metadata` JSON of `arrow.fixed_shape_tensor`.
//!
//! pyarrow and arrow-rs disagree on it (pyarrow writes `permutation` and
//! rejects `"dim_names": null`; arrow-rs writes `permutations` with
//! explicit nulls and rejects `permutation`), so this writes the form both
//! read, `{"shape":[..]}` (plus `dim_names`, and `permutation` only when it
//! is not the identity), and reads either, with a small JSON parser of its
//! own.

use super::invalid;
use crate::Result;

/// The parameters of one `arrow.fixed_shape_tensor` type.
///
/// ```
/// use tftensor::arrow::FixedShapeTensorMetadata;
/// let m = FixedShapeTensorMetadata::parse(r#"{"shape":[2,3],"dim_names":null,"permutations":[1,0]}"#)?;
/// assert_eq!(m.shape, [2, 3]);
/// assert_eq!(m.permutation, Some(vec![1, 0]));
/// assert_eq!(m.to_json(), r#"{"shape":[2,3],"permutation":[1,0]}"#);
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FixedShapeTensorMetadata {
    /// The physical (row-major) shape of one element.
    pub shape: Vec<usize>,
    /// A name per physical dimension.
    pub dim_names: Option<Vec<String>>,
    /// Logical dimension `i` is physical dimension `permutation[i]`.
    pub permutation: Option<Vec<usize>>,
}

impl FixedShapeTensorMetadata {
    /// The JSON both pyarrow and arrow-rs read: no spaces, `shape` first,
    /// optional keys only when set (the identity permutation omitted).
    #[must_use]
    pub fn to_json(&self) -> String {
        let ints = |v: &[usize]| {
            let parts: Vec<String> = v.iter().map(usize::to_string).collect();
            format!("[{}]", parts.join(","))
        };
        let mut out = format!("{{\"shape\":{}", ints(&self.shape));
        if let Some(p) = &self.permutation {
            if !p.iter().enumerate().all(|(i, &d)| i == d) {
                out.push_str(&format!(",\"permutation\":{}", ints(p)));
            }
        }
        if let Some(names) = &self.dim_names {
            let parts: Vec<String> = names.iter().map(|n| json_string(n)).collect();
            out.push_str(&format!(",\"dim_names\":[{}]", parts.join(",")));
        }
        out.push('}');
        out
    }

    /// Reads pyarrow's or arrow-rs's JSON: `permutation` or
    /// `permutations`, `null` for either optional key, any whitespace,
    /// unknown keys ignored.
    ///
    /// # Errors
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat): not JSON, no
    /// `shape`, a negative or non-integer dimension, `dim_names` or a
    /// permutation of the wrong length, or a permutation that is not one.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = |what: &str| invalid(format!("fixed_shape_tensor metadata {text:?}: {what}"));
        let mut p = Parser {
            s: text.as_bytes(),
            depth: 0,
        };
        let value = p.value().ok_or_else(|| bad("not valid JSON"))?;
        p.ws();
        if !p.s.is_empty() {
            return Err(bad("trailing characters"));
        }
        let Json::Obj(entries) = value else {
            return Err(bad("not a JSON object"));
        };
        let mut m = FixedShapeTensorMetadata::default();
        let mut shape = None;
        for (key, value) in entries {
            match (key.as_str(), value) {
                ("shape", v) => shape = Some(ints(v).ok_or_else(|| bad("bad \"shape\""))?),
                ("dim_names" | "permutation" | "permutations", Json::Null) => {}
                ("dim_names", Json::Arr(items)) => {
                    let names = items.into_iter().map(|n| match n {
                        Json::Str(s) => Some(s),
                        _ => None,
                    });
                    m.dim_names = Some(
                        names
                            .collect::<Option<_>>()
                            .ok_or_else(|| bad("bad \"dim_names\""))?,
                    );
                }
                ("permutation" | "permutations", v) => {
                    m.permutation = Some(ints(v).ok_or_else(|| bad("bad permutation"))?);
                }
                ("dim_names", _) => return Err(bad("bad \"dim_names\"")),
                _ => {}
            }
        }
        m.shape = shape.ok_or_else(|| bad("no \"shape\""))?;
        let rank = m.shape.len();
        if m.dim_names.as_ref().is_some_and(|n| n.len() != rank) {
            return Err(bad("dim_names and shape differ in length"));
        }
        if let Some(p) = &m.permutation {
            let mut seen = vec![false; rank];
            let ok = p.len() == rank
                && p.iter()
                    .all(|&d| seen.get_mut(d).is_some_and(|s| !std::mem::replace(s, true)));
            if !ok {
                return Err(bad("permutation is not a permutation of the dimensions"));
            }
        }
        Ok(m)
    }
}

/// A JSON array of non-negative integers.
fn ints(v: Json) -> Option<Vec<usize>> {
    let Json::Arr(items) = v else { return None };
    items
        .into_iter()
        .map(|i| match i {
            Json::Int(n) => usize::try_from(n).ok(),
            _ => None,
        })
        .collect()
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A parsed JSON value (numbers: integers only matter here).
enum Json {
    Null,
    Other,
    Int(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

struct Parser<'a> {
    s: &'a [u8],
    depth: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some((b' ' | b'\t' | b'\n' | b'\r', rest)) = self.s.split_first() {
            self.s = rest;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        match self.s.split_first() {
            Some((&b, rest)) if b == c => {
                self.s = rest;
                true
            }
            _ => false,
        }
    }

    fn word(&mut self, w: &[u8]) -> bool {
        if self.s.starts_with(w) {
            // `starts_with` just checked the length.
            self.s = self.s.get(w.len()..).unwrap_or_default();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Option<Json> {
        self.ws();
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let v = match self.s.first()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string().map(Json::Str),
            b'n' => self.word(b"null").then_some(Json::Null),
            b't' => self.word(b"true").then_some(Json::Other),
            b'f' => self.word(b"false").then_some(Json::Other),
            _ => self.number(),
        };
        self.depth -= 1;
        v
    }

    fn object(&mut self) -> Option<Json> {
        self.eat(b'{');
        let mut out = Vec::new();
        if self.eat(b'}') {
            return Some(Json::Obj(out));
        }
        loop {
            self.ws();
            let key = self.string()?;
            if !self.eat(b':') {
                return None;
            }
            out.push((key, self.value()?));
            if self.eat(b'}') {
                return Some(Json::Obj(out));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn array(&mut self) -> Option<Json> {
        self.eat(b'[');
        let mut out = Vec::new();
        if self.eat(b']') {
            return Some(Json::Arr(out));
        }
        loop {
            out.push(self.value()?);
            if self.eat(b']') {
                return Some(Json::Arr(out));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let (&b'"', mut rest) = self.s.split_first()? else {
            return None;
        };
        let mut out = Vec::new();
        loop {
            let (&c, tail) = rest.split_first()?;
            rest = tail;
            match c {
                b'"' => break,
                b'\\' => {
                    let (&e, tail) = rest.split_first()?;
                    rest = tail;
                    let ch = match e {
                        b'"' | b'\\' | b'/' => char::from(e),
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = std::str::from_utf8(rest.get(..4)?).ok()?;
                            rest = rest.get(4..)?;
                            // Surrogate pairs never occur in dimension names
                            // we need; an unpaired one is refused.
                            char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                        }
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
        self.s = rest;
        String::from_utf8(out).ok()
    }

    fn number(&mut self) -> Option<Json> {
        let end = self
            .s
            .iter()
            .position(|c| !matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
            .unwrap_or(self.s.len()); // no delimiter: the number runs to the end
        let (num, rest) = self.s.split_at(end);
        let text = std::str::from_utf8(num).ok()?;
        self.s = rest;
        match text.parse::<i64>() {
            Ok(n) => Some(Json::Int(n)),
            Err(_) => text.parse::<f64>().ok().map(|_| Json::Other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_dialects() {
        let py = FixedShapeTensorMetadata::parse(r#"{"shape":[2,3],"permutation":[0,1]}"#).unwrap();
        assert_eq!(py.shape, [2, 3]);
        assert_eq!(py.permutation, Some(vec![0, 1]));
        let rs = FixedShapeTensorMetadata::parse(
            r#"{ "shape" : [2, 3], "dim_names": ["h", "w"], "permutations": null }"#,
        )
        .unwrap();
        assert_eq!(rs.dim_names, Some(vec!["h".into(), "w".into()]));
        assert_eq!(rs.permutation, None);
        assert_eq!(rs.to_json(), r#"{"shape":[2,3],"dim_names":["h","w"]}"#);
        assert_eq!(py.to_json(), r#"{"shape":[2,3]}"#);
    }

    #[test]
    fn rejects_bad_metadata() {
        for bad in [
            "",
            "{}",
            "[1]",
            r#"{"shape":[-1]}"#,
            r#"{"shape":[1.5]}"#,
            r#"{"shape":[2,3],"permutation":[0,0]}"#,
            r#"{"shape":[2,3],"permutation":[0]}"#,
            r#"{"shape":[2],"dim_names":["a","b"]}"#,
            r#"{"shape":[2]} x"#,
        ] {
            assert!(FixedShapeTensorMetadata::parse(bad).is_err(), "{bad}");
        }
    }
}
