"""Keeps what can drift in the tree from drifting, as docs/ARCHITECTURE.md states it:

1. No module cycles in any crate: the modules a file names (`crate::a::b`, `super::c`, a
   submodule's items, grouped imports expanded; tests left out) form no circle.
2. Every JavaScript copy of a Rust key holds the Rust value: a JS line
   `const NAME = "value"; // RUST_FILE RUST_CONST` must hold the value of `RUST_CONST` in
   `RUST_FILE`, and a JS string constant whose value is one of those keys must say so.

Prints each problem and exits 1; prints what it checked and exits 0.

    python3 scripts/tidy.py
"""

import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def modules(crate):
    """Each module of a crate (a path of names) and its file."""
    src = os.path.join(crate, "src")
    found = {}
    for folder, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            parts = os.path.relpath(path, src)[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            found[tuple(parts)] = path
    return found


def paths_after(text, head):
    """Every path that follows `head::` in `text`, with `{a, b::{c, d}}` groups expanded."""
    found = []
    for match in re.finditer(r"\b" + head + r"::", text):
        found.extend(expand(text, match.end(), []))
    return found


def expand(text, at, prefix):
    rest = text[at:]
    stripped = rest.lstrip()
    if stripped.startswith("{"):
        start = at + rest.index("{") + 1
        depth, i, items, item = 1, start, [], start
        while depth and i < len(text):
            c = text[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    items.append((item, i))
            elif c == "," and depth == 1:
                items.append((item, i))
                item = i + 1
            i += 1
        found = []
        for a, b in items:
            if text[a:b].strip():
                found.extend(expand(text[:b], a, prefix))
        return found
    match = re.match(r"\s*(" + IDENT + ")", rest)
    if not match:
        return [prefix] if prefix else []
    prefix = prefix + [match.group(1)]
    at += match.end()
    if text[at : at + 2] == "::":
        return expand(text, at + 2, prefix)
    return [prefix]


def without_tests_and_comments(text):
    cut = text.find("#[cfg(test)]")
    if cut >= 0:
        text = text[:cut]
    return re.sub(r"//[^\n]*", "", text)


def cycles(crate):
    """The circles among a crate's modules, each as its modules' names."""
    mods = modules(crate)
    edges = collections.defaultdict(set)
    for module, path in mods.items():
        with open(path, encoding="utf-8") as f:
            text = without_tests_and_comments(f.read())
        targets = []
        for parts in paths_after(text, "crate"):
            targets.extend(tuple(parts[:k]) for k in range(len(parts), 0, -1) if tuple(parts[:k]) in mods)
        targets.extend(module[:-1] + (parts[0],) for parts in paths_after(text, "super") if parts)
        for name in set(re.findall(r"(?<![:\w])(?:self::)?([a-z_][a-z0-9_]*)::", text)):
            targets.append(module + (name,))
        for target in targets:
            # A module's use of its own parents is containment, not a dependency that circles.
            if target in mods and target != module and module[: len(target)] != target:
                edges[module].add(target)
    # Tarjan's strongly connected components.
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append("::".join(w) or "(crate root)")
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for module in sorted(mods):
        if module not in index:
            visit(module)
    return found, len(mods)


def rust_keys(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return dict(re.findall(r"pub const (" + IDENT + r"): &str = \"([^\"]*)\";", f.read()))


def js_copies():
    """Problems with the JS copies of Rust keys, and how many copies were checked."""
    problems, checked, marked_values, constants = [], 0, set(), []
    for folder, _, files in os.walk(os.path.join(ROOT, "web")):
        for name in sorted(files):
            if not name.endswith(".js"):
                continue
            path = os.path.join(folder, name)
            shown = os.path.relpath(path, ROOT)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    const = re.match(r"\s*(?:export )?const (" + IDENT + r") = \"([^\"]*)\";(?:\s*//\s*(\S+\.rs) (" + IDENT + r"))?", line)
                    if not const:
                        continue
                    js_name, value, rust_file, rust_name = const.groups()
                    constants.append((shown, number, js_name, value, rust_file))
                    if not rust_file:
                        continue
                    checked += 1
                    keys = rust_keys(rust_file) if os.path.isfile(os.path.join(ROOT, rust_file)) else {}
                    if rust_name not in keys:
                        problems.append(f"{shown}:{number}: {rust_file} has no pub const {rust_name}: &str")
                    elif keys[rust_name] != value:
                        problems.append(f"{shown}:{number}: {js_name} is {value!r}, {rust_file} {rust_name} is {keys[rust_name]!r}")
                    else:
                        marked_values.add(value)
    for shown, number, js_name, value, rust_file in constants:
        if value in marked_values and not rust_file:
            problems.append(f"{shown}:{number}: {js_name} copies a Rust key: say which (// FILE CONST)")
    return problems, checked


def main():
    problems = []
    crates = sorted(
        os.path.join(ROOT, "crates", c)
        for c in os.listdir(os.path.join(ROOT, "crates"))
        if os.path.isdir(os.path.join(ROOT, "crates", c, "src"))
    )
    counted = 0
    for crate in crates:
        circles, count = cycles(crate)
        counted += count
        for circle in circles:
            problems.append(f"{os.path.relpath(crate, ROOT)}: modules in a circle: {', '.join(circle)}")
    copy_problems, copies = js_copies()
    problems.extend(copy_problems)
    for problem in problems:
        print(problem)
    print(f"tidy: {counted} modules in {len(crates)} crates, {copies} JS copies of Rust keys: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
