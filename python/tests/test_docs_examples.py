"""Every ```python block of the README and the guide runs, with this build of the package.

The blocks of one page run in order, each in its own interpreter, in a scratch folder laid out
as a checkout (``corpora/``, ``tests/``, ``python/`` of the repository, ``../shared``). A block
whose first line is ``# file: NAME`` is written to NAME instead (a conftest.py, or a test
module a later block runs with ``pytest.main([...])``). A block followed by a ```text block must print exactly that (``...`` lines stand for any lines).

The Python API reference (``docs/guide/src/reference/python.md``) is generated from the
package's docstrings and signatures; it must equal what ``render_api()`` gives
(``GRAPE_DOCS=write`` rewrites it).
"""

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _pages():
    pages = [ROOT / "README.md"]
    pages += sorted((ROOT / "docs" / "guide" / "src").rglob("*.md"))
    return pages


def _blocks(page):
    """(line, lang, text, expected) for each fenced block of a page."""
    lines = page.read_text(encoding="utf-8").split("\n")
    out = []
    i = 0
    pending = None
    while i < len(lines):
        m = re.match(r"^(\s*)```(.*)$", lines[i])
        if m:
            indent, lang = len(m.group(1)), m.group(2).strip()
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith("```"):
                j += 1
            body = "\n".join(l[indent:] for l in lines[i + 1 : j]) + "\n"
            if lang == "text" and pending is not None:
                out[pending][3] = body
                pending = None
            else:
                out.append([i + 1, lang, body, None])
                pending = len(out) - 1 if lang == "python" else None
            i = j + 1
            continue
        if lines[i].strip():
            pending = None
        i += 1
    return out


def _matches(expected, actual):
    e = expected.rstrip().split("\n")
    a = actual.rstrip().split("\n")

    def go(ei, ai):
        if ei == len(e):
            return ai == len(a)
        if e[ei] == "...":
            return any(go(ei + 1, k) for k in range(ai, len(a) + 1))
        return ai < len(a) and a[ai].rstrip() == e[ei].rstrip() and go(ei + 1, ai + 1)

    return go(0, 0)


def _shared():
    d = Path(os.environ.get("GRAPE_SHARED", ROOT.parent / "shared"))
    return d if (d / "README.md").exists() else None


def _sandbox(tmp_path):
    cwd = tmp_path / "grape"
    cwd.mkdir()
    for d in ["corpora", "tests", "python", "docs", "scripts"]:
        (cwd / d).symlink_to(ROOT / d)
    shared = _shared()
    if shared:
        (tmp_path / "shared").symlink_to(shared)
    return cwd


PAGES = [p for p in _pages() if any(b[1] == "python" for b in _blocks(p))]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_python_blocks_run(page, tmp_path):
    if _shared() is None and os.environ.get("GRAPE_REQUIRE_PYTHON_PACKAGE") != "1":
        pytest.skip("../shared not found (set GRAPE_SHARED)")
    cwd = _sandbox(tmp_path)
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if os.environ.get("GRAPE_BIN"):
        bindir = tmp_path / "bin"
        bindir.mkdir()
        (bindir / "grape").symlink_to(os.environ["GRAPE_BIN"])
        env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    failures = []
    for line, lang, text, expected in _blocks(page):
        if lang != "python":
            continue
        first = text.split("\n", 1)[0].strip()
        where = f"{page.relative_to(ROOT)}:{line}"
        if first.startswith("# file: "):
            name = first[len("# file: ") :].strip()
            (cwd / name).write_text(text, encoding="utf-8")
            continue
        cmd = [sys.executable, "-c", text]
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            failures.append(f"{where}: failed\n--- block\n{text}--- stdout\n{r.stdout}--- stderr\n{r.stderr}")
        elif expected is not None and not _matches(expected, r.stdout):
            failures.append(f"{where}: output differs\n--- page\n{expected}--- printed\n{r.stdout}")
    assert not failures, "\n\n".join(failures)


def render_api():
    """The package's public API as Markdown: every name in ``grape.__all__`` (and the metrics
    module), with its signature and docstring."""
    import grape
    from grape import metrics

    out = [
        "# Python API reference",
        "",
        "Generated from the package's own signatures and docstrings (a test fails when this "
        "page and the package disagree). `import grape`; the metrics are in `grape.metrics`.",
        "",
    ]

    def sig(obj, name):
        s = getattr(obj, "__text_signature__", None)
        if s:
            return name + s.replace("($self, ", "(").replace("($self)", "()").replace("$module, ", "")
        try:
            return name + str(inspect.signature(obj))
        except (TypeError, ValueError):
            return name

    def doc(obj):
        d = inspect.getdoc(obj) or ""
        return d.strip()

    def entry(level, obj, name, qual):
        out.append(f"{'#' * level} `{qual}`")
        out.append("")
        if callable(obj) and not inspect.isclass(obj):
            out.append("```text")
            out.append(sig(obj, name))
            out.append("```")
            out.append("")
        d = doc(obj)
        if d:
            out.append(d)
            out.append("")

    names = sorted(getattr(grape, "__all__", [n for n in dir(grape) if not n.startswith("_")]))
    for n in names:
        obj = getattr(grape, n)
        if inspect.ismodule(obj):
            continue
        entry(2, obj, n, f"grape.{n}")
        if inspect.isclass(obj):
            for m, member in sorted(vars(obj).items()):
                if m.startswith("_") and m != "__init__":
                    continue
                if m == "__init__":
                    continue
                entry(3, member if not isinstance(member, (staticmethod, classmethod)) else member.__func__, m, f"{n}.{m}")
    out.append("## `grape.metrics`")
    out.append("")
    for n in sorted(x for x in dir(metrics) if not x.startswith("_")):
        obj = getattr(metrics, n)
        if inspect.ismodule(obj):
            continue
        entry(3, obj, n, f"metrics.{n}")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).rstrip() + "\n"


def test_python_reference_is_generated_from_the_package():
    page = ROOT / "docs" / "guide" / "src" / "reference" / "python.md"
    text = render_api()
    if os.environ.get("GRAPE_DOCS") == "write":
        page.write_text(text, encoding="utf-8")
    assert page.exists() and page.read_text(encoding="utf-8") == text, (
        f"{page} differs from the package's docstrings: rerun with GRAPE_DOCS=write"
    )
