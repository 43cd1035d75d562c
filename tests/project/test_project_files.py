"""The project files agree with each other.

- environment.yml (conda) lists the same packages with the same version
  bounds as pyproject.toml's runtime dependencies plus the ``lab`` and ``dev``
  extras. The ``torch`` extra is left out of environment.yml on purpose.
- .ci/run runs the test command the README documents (``make test``), with
  ``MINIGRAD_REQUIRE_TORCH=1``, after installing exactly the pinned PyTorch.

environment.yml is read by a small parser of its fixed, simple format, so
these tests need nothing beyond pytest (``packaging`` comes with pytest).
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]

# pip name -> conda-forge name, where they differ.
PIP_TO_CONDA = {"graphviz": "python-graphviz"}
# Packages environment.yml may list that have no pip counterpart in
# pyproject.toml: the Graphviz program itself, the interpreter and pip.
CONDA_ONLY = {"graphviz", "python", "pip"}
# pyproject extras that environment.yml mirrors (torch is excluded on purpose).
MIRRORED_EXTRAS = ("lab", "dev")
TORCH_PIN = "torch==2.13.0"


# --- readers ---------------------------------------------------------------

def load_pyproject() -> dict:
    try:
        import tomllib  # Python >= 3.11
    except ModuleNotFoundError:
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError:
            pytest.skip("reading pyproject.toml needs Python >= 3.11 (tomllib) or the "
                        "tomli package; this check runs in CI (Python 3.11)")
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def parse_environment_yml(text: str) -> dict:
    """Parse the fixed format of environment.yml.

    Supported: ``key: value`` and ``key:`` followed by a ``- item`` list at
    top level, and inside a list one ``- name:`` entry with its own nested
    ``- item`` list (the ``pip:`` section). Comments and blank lines are
    ignored. Anything else raises ValueError, so a change of format shows up
    as a failing test rather than being misread.
    """
    data: dict = {}
    current_list: list | None = None  # top-level list being filled
    nested: list | None = None        # list under "- pip:"
    nested_indent = -1
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if indent == 0:
            m = re.fullmatch(r"([A-Za-z_][\w-]*):\s*(.*)", body)
            if not m:
                raise ValueError(f"environment.yml:{lineno}: unexpected line {raw!r}")
            key, value = m.groups()
            if value:
                data[key] = value.strip("'\"")
                current_list = None
            else:
                current_list = data[key] = []
            nested = None
            continue
        if not body.startswith("- ") or current_list is None:
            raise ValueError(f"environment.yml:{lineno}: unexpected line {raw!r}")
        item = body[2:].strip().strip("'\"")
        if nested is not None and indent > nested_indent:
            nested.append(item)
            continue
        nested = None
        m = re.fullmatch(r"([A-Za-z_][\w-]*):", item)
        if m:
            nested = []
            nested_indent = indent
            current_list.append({m.group(1): nested})
        else:
            current_list.append(item)
    return data


def normalize_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def split_conda_spec(spec: str) -> tuple[str, str]:
    """``"numpy>=1.23"`` or ``"numpy >=1.23"`` -> ``("numpy", ">=1.23")``."""
    m = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9_.-]*)\s*(.*)", spec.strip())
    if not m:
        raise ValueError(f"cannot read conda spec {spec!r}")
    return normalize_name(m.group(1)), m.group(2).replace(" ", "")


def pip_bounds(requirements: list[str]) -> dict[str, str]:
    """pip requirement strings -> {conda name: version bound}."""
    out = {}
    for r in requirements:
        req = Requirement(r)
        name = normalize_name(req.name)
        name = PIP_TO_CONDA.get(name, name)
        bound = ",".join(sorted(str(s) for s in req.specifier))
        out[name] = bound
    return out


def compare_deps(pip_requirements: list[str], conda_specs: list[str]) -> list[str]:
    """Problems (empty list when they agree) between pip requirements and
    conda specs; CONDA_ONLY packages may appear on the conda side only."""
    want = pip_bounds(pip_requirements)
    have = {}
    for spec in conda_specs:
        name, bound = split_conda_spec(spec)
        have[name] = ",".join(sorted(b for b in bound.split(",") if b))
    problems = []
    for name, bound in sorted(want.items()):
        if name not in have:
            problems.append(f"{name}{bound} is in pyproject.toml but missing from environment.yml")
        elif have[name] != bound:
            problems.append(f"{name}: pyproject.toml has {bound!r}, environment.yml has {have[name]!r}")
    for name in sorted(set(have) - set(want) - CONDA_ONLY):
        problems.append(f"{name} is in environment.yml but not in pyproject.toml")
    return problems


# --- fixtures --------------------------------------------------------------

@pytest.fixture(scope="module")
def pyproject() -> dict:
    return load_pyproject()


@pytest.fixture(scope="module")
def environment() -> dict:
    return parse_environment_yml((ROOT / "environment.yml").read_text())


def conda_specs(env: dict) -> list[str]:
    return [d for d in env["dependencies"] if isinstance(d, str)]


def pip_section(env: dict) -> list[str]:
    sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert len(sections) == 1, "environment.yml should have one '- pip:' section"
    return sections[0]


# --- pyproject.toml <-> environment.yml -------------------------------------

def test_environment_yml_matches_pyproject(pyproject, environment):
    project = pyproject["project"]
    extras = project["optional-dependencies"]
    pip_reqs = list(project["dependencies"])
    for extra in MIRRORED_EXTRAS:
        pip_reqs += extras[extra]
    assert compare_deps(pip_reqs, conda_specs(environment)) == []


def test_environment_yml_basics(pyproject, environment):
    assert environment["name"] == "minigrad"
    assert environment["channels"] == ["conda-forge"]
    specs = dict(split_conda_spec(s) for s in conda_specs(environment))
    # The Graphviz program (dot), the interpreter with the same bound, and pip.
    assert "graphviz" in specs
    assert specs["python"] == pyproject["project"]["requires-python"].replace(" ", "")
    assert "pip" in specs
    assert pip_section(environment) == ["-e ."]


def test_torch_extra_is_exact_pin_and_not_in_environment_yml(pyproject, environment):
    assert pyproject["project"]["optional-dependencies"]["torch"] == [TORCH_PIN]
    names = {split_conda_spec(s)[0] for s in conda_specs(environment)}
    names |= {normalize_name(Requirement(p).name) for p in pip_section(environment)
              if not p.startswith("-")}
    assert not names & {"torch", "pytorch"}, "torch is left out of environment.yml on purpose"
    # No other dependency list may name torch without the exact pin.
    project = pyproject["project"]
    for group in [project["dependencies"], *project["optional-dependencies"].values()]:
        for r in group:
            if normalize_name(Requirement(r).name) == "torch":
                assert r.replace(" ", "") == TORCH_PIN


# --- the comparison helpers can fail ---------------------------------------

def test_compare_deps_accepts_matching_sets():
    pip_reqs = ["numpy>=1.23", "graphviz>=0.20", "pytest >= 7"]
    conda = ["python>=3.10", "numpy>=1.23", "graphviz", "python-graphviz>=0.20",
             "pytest >=7", "pip"]
    assert compare_deps(pip_reqs, conda) == []


@pytest.mark.parametrize(
    "pip_reqs, conda, expected",
    [
        (["numpy>=1.23"], ["numpy>=1.24"], "numpy"),                      # bound differs
        (["numpy>=1.23"], ["numpy"], "numpy"),                            # bound missing
        (["numpy>=1.23"], [], "missing from environment.yml"),            # package missing
        (["graphviz>=0.20"], ["graphviz"], "python-graphviz"),            # only the binary
        (["numpy>=1.23"], ["numpy>=1.23", "scipy"], "scipy"),             # unexpected extra
        (["numpy>=1.23"], ["numpy>=1.23", "pytorch"], "pytorch"),         # torch sneaks in
    ],
)
def test_compare_deps_reports_mismatch(pip_reqs, conda, expected):
    problems = compare_deps(pip_reqs, conda)
    assert problems, f"expected a problem for {pip_reqs} vs {conda}"
    assert any(expected in p for p in problems), problems


def test_parser_reads_nested_pip_section_and_rejects_unknown_format():
    env = parse_environment_yml(
        "name: x  # comment\nchannels:\n  - conda-forge\ndependencies:\n"
        "  - numpy>=1.23\n  - pip\n  - pip:\n      - -e .\n  - after\n")
    assert env == {"name": "x", "channels": ["conda-forge"],
                   "dependencies": ["numpy>=1.23", "pip", {"pip": ["-e ."]}, "after"]}
    with pytest.raises(ValueError):
        parse_environment_yml("dependencies:\n  numpy: 1\n")


# --- .ci/run <-> README ----------------------------------------------------

def ci_commands() -> list[list[str]]:
    """The command lines of .ci/run (comments and echo lines dropped), split
    into words."""
    cmds = []
    for line in (ROOT / ".ci" / "run").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        words = shlex.split(line, comments=True)
        if words and words[0] != "echo":
            cmds.append(words)
    return cmds


def test_ci_runs_the_documented_test_command():
    readme = (ROOT / "README.md").read_text()
    assert "make test" in readme, "README.md should document `make test`"
    cmds = ci_commands()
    assert ["MINIGRAD_REQUIRE_TORCH=1", "make", "test"] in cmds, cmds
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111, ".ci/run should be executable"


def test_ci_installs_exactly_the_pinned_torch(pyproject):
    installs = [c for c in ci_commands() if len(c) > 2 and c[0].endswith("pip") and c[1] == "install"]
    torch_args = [a for c in installs for a in c[2:]
                  if not a.startswith("-") and re.match(r"(py)?torch\b", a)]
    assert torch_args == [TORCH_PIN], torch_args
    assert pyproject["project"]["optional-dependencies"]["torch"] == [TORCH_PIN]
    # make test must come after the install, with PyTorch required.
    order = [" ".join(c) for c in ci_commands()]
    i_install = next(i for i, c in enumerate(order) if TORCH_PIN in c)
    i_test = order.index("MINIGRAD_REQUIRE_TORCH=1 make test")
    assert i_install < i_test


def test_readme_table_of_contents_links_every_notebook_both_versions():
    """The README's course table lists every notebook, complete and blank, and every link
    in it points at a file that exists."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The course", 1)[1].split("\n## ", 1)[0]
    links = re.findall(r"\]\((notebooks/[^)]+\.ipynb)\)", section)
    for link in links:
        assert (ROOT / link).exists(), f"README links to a missing notebook: {link}"
    notebooks = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert notebooks, "no notebooks found"
    for nb in notebooks:
        blank = nb.replace("notebooks/", "notebooks/student/", 1)
        assert nb in links and blank in links, f"README's table of contents lacks {nb} or its blank version"


