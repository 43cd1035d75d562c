"""Set-up says what happened: a failed install step says it failed, with the command's own
error and what to do (scripts/ensure-dot.sh, run by `make setup`), never "finished".

apt-get and id are stand-ins on a PATH of their own, so nothing is installed."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ensure-dot.sh"
LOCKED = ("E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)\n"
          "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another "
          "process using it?")


def fake_bin(tmp_path, apt_get: str, with_dot=False) -> Path:
    """A PATH of the tools the script uses, with `id` saying root and `apt-get` as given."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("cat", "tail", "sed"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    (bin_dir / "id").write_text("#!/bin/sh\necho 0\n")
    (bin_dir / "apt-get").write_text(apt_get)
    if with_dot:
        (bin_dir / "dot").write_text("#!/bin/sh\necho 'dot - graphviz version 2.43.0' >&2\n")
    for p in bin_dir.iterdir():
        if not p.is_symlink():
            p.chmod(0o755)
    return bin_dir


def run(bin_dir):
    bash = shutil.which("bash")
    return subprocess.run([bash, str(SCRIPT)], env={"PATH": str(bin_dir)}, capture_output=True,
                          text=True, timeout=60, check=False)


@pytest.fixture(autouse=True)
def needs_bash():
    if not all(shutil.which(t) for t in ("bash", "cat", "tail", "sed")):
        pytest.skip("needs bash, cat, tail and sed")


def test_a_failed_apt_get_says_so_with_its_error_and_what_to_do(tmp_path):
    apt_get = ('#!/bin/sh\nif [ "$1" = install ]; then\n'
               f"  printf '%s\\n' '{LOCKED}' >&2\n  exit 100\nfi\n")
    res = run(fake_bin(tmp_path, apt_get))
    assert res.returncode == 0, "the course works without dot: setup goes on"
    err = res.stderr
    assert "`apt-get install -y -qq graphviz` failed (exit status 100)" in err
    assert "Could not get lock /var/lib/dpkg/lock-frontend" in err, "apt-get's own error"
    assert "wait for it to finish, then run make again" in err
    assert "sudo apt-get install graphviz" in err and "conda install" in err
    assert "finished" not in res.stdout + err


def test_a_failed_update_is_reported_and_the_install_still_tried(tmp_path):
    apt_get = ('#!/bin/sh\nif [ "$1" = update ]; then echo "E: no network" >&2; exit 100; fi\n'
               "exit 0\n")
    res = run(fake_bin(tmp_path, apt_get))
    assert "`apt-get update -qq` failed (exit status 100)" in res.stderr
    assert "E: no network" in res.stderr
    # The install "succeeded" but put no dot on PATH: said as it is.
    assert "succeeded, but 'dot' is not on PATH" in res.stderr


def test_an_install_that_works_says_what_it_installed(tmp_path):
    bin_dir = fake_bin(tmp_path, "#!/bin/sh\nexit 0\n")
    # apt-get "installs" dot: it appears on PATH after the install call.
    (bin_dir / "apt-get").write_text(
        '#!/bin/sh\nif [ "$1" = install ]; then\n'
        f"  printf '#!/bin/sh\\necho dot - graphviz version 2.43.0 >&2\\n' > '{bin_dir}/dot'\n"
        f"  {shutil.which('chmod')} +x '{bin_dir}/dot'\nfi\nexit 0\n")
    res = run(bin_dir)
    assert res.returncode == 0 and res.stderr == ""
    assert "Installed: dot - graphviz version 2.43.0" in res.stdout


def test_dot_present_means_nothing_to_do(tmp_path):
    res = run(fake_bin(tmp_path, "#!/bin/sh\nexit 1\n", with_dot=True))
    assert (res.returncode, res.stdout, res.stderr) == (0, "", "")


def test_a_failed_pip_install_in_make_setup_says_what_to_do():
    text = (ROOT / "Makefile").read_text()
    recipe = text[text.index("$(STAMP):"):text.index("PIP_FAILED :=")]
    installs = [line for line in recipe.splitlines() if "pip install" in line and "echo" not in line.split("||")[0]]
    assert installs and all('|| { echo "$(PIP_FAILED)" >&2; exit 1; }' in line for line in installs)
    assert "its own error is above" in text and "run make again" in text


# --- make setup's pip install: progress, not pip's hundred-odd lines ------------------------

def pip_progress(pip_output: str) -> str:
    return subprocess.run([shutil.which("bash"), str(ROOT / "scripts" / "pip-progress.sh")],
                          input=pip_output, capture_output=True, text=True, timeout=60,
                          check=True).stdout


def test_a_first_install_shows_progress_in_a_few_lines():
    lines = ["Obtaining file:///home/me/minigrad", "  Installing build dependencies: started"]
    for i in range(23):
        lines += [f"Collecting package{i}>=1.0 (from minigrad==0.1)",
                  f"  Downloading package{i}-1.0-py3-none-any.whl (1.2 MB)"]
    lines += ["Installing collected packages: package0, package1, package2",
              "Successfully installed package0-1.0 package1-1.0 package2-1.0"]
    assert pip_progress("\n".join(lines) + "\n") == (
        "  downloading: 10 20\n  installing 3 package(s) ...\n  done.\n")


def test_pip_retries_and_errors_are_shown_as_they_are():
    retry = ("WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) "
             "after connection broken by 'ReadTimeoutError': /simple/numpy/")
    error = ["ERROR: Could not find a version that satisfies the requirement numpy>=2.1 "
             "(from versions: none)", "ERROR: No matching distribution found for numpy>=2.1"]
    out = pip_progress("\n".join(["Collecting scipy>=1.13", retry, *error]) + "\n")
    assert out == "  downloading:\n  " + retry + "\n" + "\n".join(error) + "\n"
