"""No function of the browser client runs over about a screen: a longer one is a controller that
wants its parts in modules of their own (as the table's are in static/js/table/)."""

from __future__ import annotations

from .js_source import Function, code_only, functions, sources

MAX_LINES = 80
"""The longest function body, in lines from its opening brace to its closing one."""


def test_the_scanner_counts_function_bodies_only() -> None:
    source = (
        "// function commented() {\n}\n"
        'const s = "{{{", r = /\\{(\\w+)\\}/g, half = 1 / 2;\n'
        "export function outer(a) {\n"
        "  if (a) {\n    return `${a}{`;\n  }\n"
        "  const inner = (b) => {\n    return b;\n  };\n"
        "  return { method() {\n    return { x: 1 };\n  }, arrow: () => 2 };\n"
        "}\n"
        "class C {\n  async go(x) {\n    for (const y of x) { use(y); }\n  }\n}\n"
    )
    assert code_only(source).count("{") == source.count("{") - 6  # 3 in text, 3 in the regex
    assert functions(source) == [
        Function("outer", 4, 11), Function("=>", 8, 3), Function("method", 11, 3),
        Function("go", 16, 3),
    ]


def test_no_function_is_longer_than_a_screen() -> None:
    found = {path: functions(text) for path, text in sources().items()}
    assert sum(map(len, found.values())) > 150  # the scanner sees the client's functions
    long = [
        f"{path}:{f.line} {f.name} ({f.lines} lines)"
        for path, fs in found.items() for f in fs if f.lines > MAX_LINES
    ]
    assert not long, f"functions over {MAX_LINES} lines: {long}"
