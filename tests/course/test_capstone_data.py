"""The data set shipped for notebook 12 (notebooks/data/digits.csv.gz) and its README."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).resolve().parents[2] / "notebooks" / "data"
DIGITS = DATA / "digits.csv.gz"
SHA256 = "09f66e6debdee2cd2b5ae59e0d6abbb73fc2b0e0185d2e1957e9ebb51e23aa22"
PER_DIGIT = [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]


def load(path=DIGITS):
    """What the notebook does: NumPy only."""
    table = np.loadtxt(path, delimiter=",")
    return table[:, :64], table[:, 64].astype(np.int64)


@pytest.fixture(scope="module")
def digits():
    return load()


def test_file_is_the_documented_one_and_small():
    data = DIGITS.read_bytes()
    assert hashlib.sha256(data).hexdigest() == SHA256
    assert len(data) == 57523, "the size given in notebooks/data/README.md"
    assert len(data) < 100_000, "the course keeps its data files small"
    assert data[:2] == b"\x1f\x8b", "a gzip file"


def test_shape_values_and_classes(digits):
    images, labels = digits
    assert images.shape == (1797, 64) and labels.shape == (1797,)
    assert images.min() == 0 and images.max() == 16
    assert np.array_equal(images, np.round(images)), "pixel values are whole numbers"
    assert np.bincount(labels, minlength=10).tolist() == PER_DIGIT
    assert set(np.unique(labels)) == set(range(10))


def test_constant_pixels_are_there(digits):
    """The notebook's standardisation exercise relies on pixels that never light up."""
    images, _ = digits
    assert np.flatnonzero(images.std(axis=0) == 0).tolist() == [0, 32, 39]


def test_readme_names_source_licence_and_checksum():
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    assert "digits.csv.gz" in readme
    for words in ("CC BY 4.0", "Alpaydin", "Kaynak", "UCI Machine Learning Repository",
                  "10.24432/C50P49", "scikit-learn", SHA256):
        assert words in readme, words


def test_every_data_file_is_described_in_the_readme():
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for path in DATA.iterdir():
        if path.name != "README.md" and not path.name.startswith("."):
            assert f"`{path.name}`" in readme, f"{path.name} is not described in notebooks/data/README.md"


def test_the_notebook_loads_it_with_numpy_only():
    nb = json.loads((DATA.parent / "12_capstone.ipynb").read_text(encoding="utf-8"))
    sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    loading = [s for s in sources if "digits.csv.gz" in s]
    assert loading, "notebook 12 does not load data/digits.csv.gz"
    assert 'np.loadtxt(path, delimiter=",")' in loading[0]
    assert '"data/digits.csv.gz"' in loading[0] and '"../data/digits.csv.gz"' in loading[0]
    assert not any("sklearn" in s for s in sources)


def test_loader_works_from_a_copy(tmp_path, digits):
    """np.loadtxt reads the gzip file wherever it is (the blank notebook looks one folder up)."""
    copy = tmp_path / "digits.csv.gz"
    copy.write_bytes(DIGITS.read_bytes())
    images, labels = load(copy)
    assert np.array_equal(images, digits[0]) and np.array_equal(labels, digits[1])
