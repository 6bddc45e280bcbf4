//! Typed access to the fields of one JSON event, collecting every problem with its field name.
//!
//! Each accessor marks the field as known; `finish` then reports every field nobody asked for
//! as unknown. Problems are collected, not returned, so one pass reports them all.

use serde_json::{Map, Value};

use crate::error::LogError;

pub struct Fields<'a> {
    line: usize,
    map: &'a Map<String, Value>,
    known: Vec<&'static str>,
    pub errors: Vec<LogError>,
}

/// How a JSON value is described in "found ..." messages.
pub fn describe(v: &Value) -> String {
    let s = match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("\"{s}\""),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    };
    if s.chars().count() > 60 {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    } else {
        s
    }
}

impl<'a> Fields<'a> {
    pub fn new(line: usize, map: &'a Map<String, Value>) -> Fields<'a> {
        Fields {
            line,
            map,
            known: vec!["type", "seq", "at", "by", "note", "hash"],
            errors: Vec::new(),
        }
    }

    pub fn line(&self) -> usize {
        self.line
    }

    pub fn error(&mut self, field: &str, message: impl Into<String>) {
        self.errors
            .push(LogError::new(self.line, Some(field), message));
    }

    pub fn raw(&mut self, name: &'static str) -> Option<&'a Value> {
        self.known.push(name);
        match self.map.get(name) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v),
        }
    }

    pub fn has(&self, name: &str) -> bool {
        matches!(self.map.get(name), Some(v) if !v.is_null())
    }

    fn missing(&mut self, name: &str, what: &str) {
        self.error(name, format!("missing; expected {what}"));
    }

    pub fn opt_str(&mut self, name: &'static str) -> Option<String> {
        match self.raw(name)? {
            Value::String(s) => Some(s.clone()),
            other => {
                let msg = format!("expected a string, found {}", describe(other));
                self.error(name, msg);
                None
            }
        }
    }

    pub fn req_str(&mut self, name: &'static str) -> Option<String> {
        if !self.has(name) {
            self.known.push(name);
            self.missing(name, "a string");
            return None;
        }
        self.opt_str(name).filter(|s| {
            if s.trim().is_empty() {
                self.errors.push(LogError::new(
                    self.line,
                    Some(name),
                    "expected a non-empty string, found \"\"",
                ));
                false
            } else {
                true
            }
        })
    }

    /// An id: a JSON string (C2); a number is refused with a hint.
    pub fn req_id(&mut self, name: &'static str) -> Option<String> {
        if let Some(Value::Number(n)) = self.map.get(name) {
            self.known.push(name);
            self.error(
                name,
                format!("expected an id as a JSON string, found the number {n} (write \"{n}\")"),
            );
            return None;
        }
        self.req_str(name)
    }

    pub fn opt_id(&mut self, name: &'static str) -> Option<String> {
        if self.has(name) {
            self.req_id(name)
        } else {
            self.known.push(name);
            None
        }
    }

    pub fn opt_int(&mut self, name: &'static str, lo: i64, hi: i64) -> Option<i64> {
        let v = self.raw(name)?;
        match v.as_i64() {
            Some(n) if (lo..=hi).contains(&n) => Some(n),
            Some(n) => {
                self.error(name, format!("expected an integer {lo}..={hi}, found {n}"));
                None
            }
            None => {
                let msg = format!("expected an integer {lo}..={hi}, found {}", describe(v));
                self.error(name, msg);
                None
            }
        }
    }

    pub fn req_int(&mut self, name: &'static str, lo: i64, hi: i64) -> Option<i64> {
        if !self.has(name) {
            self.known.push(name);
            self.missing(name, &format!("an integer {lo}..={hi}"));
            return None;
        }
        self.opt_int(name, lo, hi)
    }

    pub fn opt_bool(&mut self, name: &'static str) -> Option<bool> {
        match self.raw(name)? {
            Value::Bool(b) => Some(*b),
            other => {
                let msg = format!("expected true or false, found {}", describe(other));
                self.error(name, msg);
                None
            }
        }
    }

    /// Report every field that no accessor asked for.
    pub fn finish(mut self, type_name: &str) -> Vec<LogError> {
        let mut unknown: Vec<&String> = self
            .map
            .keys()
            .filter(|k| !self.known.contains(&k.as_str()))
            .collect();
        unknown.sort();
        for k in unknown {
            let mut allowed: Vec<&str> = self.known.clone();
            allowed.sort();
            allowed.dedup();
            self.errors.push(LogError::new(
                self.line,
                Some(k),
                format!(
                    "unknown field for a \"{type_name}\" event (expected one of: {})",
                    allowed.join(", ")
                ),
            ));
        }
        self.errors
    }
}
