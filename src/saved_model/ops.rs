//! TF's `meta_graph.ops_used_by_graph_def` (tensorflow/python/framework/meta_graph.py).

use crate::pb;
use std::collections::{BTreeSet, HashMap, HashSet};

/// The walk's state: library functions by name, ops seen, functions to visit.
struct Walk<'a> {
    by_name: HashMap<&'a str, &'a pb::FunctionDef>,
    used: HashSet<&'a str>,
    todo: Vec<&'a pb::FunctionDef>,
}

impl<'a> Walk<'a> {
    fn mark(&mut self, op: &'a str) {
        if !self.used.contains(op) {
            if let Some(&f) = self.by_name.get(op) {
                self.todo.push(f);
            }
        }
        self.used.insert(op);
    }

    fn process(&mut self, node: &'a pb::NodeDef) {
        self.mark(&node.op);
        if node.op == "PartitionedCall" || node.op == "StatefulPartitionedCall" {
            // Python's `node.attr["f"].func.name` reads "" when `f` is
            // absent or not a func, and marks that "" as used.
            let f = match node.attr.get("f").and_then(|a| a.value.as_ref()) {
                Some(pb::attr_value::Value::Func(func)) => func.name.as_str(),
                _ => "",
            };
            self.mark(f);
        }
    }
}

/// The op names a graph uses, library function names removed.
pub(super) fn ops_used_by_graph_def(graph: &pb::GraphDef) -> BTreeSet<String> {
    let mut w = Walk {
        by_name: HashMap::new(),
        used: HashSet::new(),
        todo: Vec::new(),
    };
    if let Some(lib) = &graph.library {
        for f in &lib.function {
            // Python's `fun.signature.name` is "" when signature is unset;
            // a later function of the same name replaces an earlier one.
            w.by_name
                .insert(f.signature.as_ref().map_or("", |s| s.name.as_str()), f);
        }
    }
    for node in &graph.node {
        w.process(node);
    }
    while let Some(f) = w.todo.pop() {
        for node in &f.node_def {
            w.process(node);
        }
    }
    w.used
        .iter()
        .filter(|op| !w.by_name.contains_key(*op))
        .map(|op| (*op).to_owned())
        .collect()
}
