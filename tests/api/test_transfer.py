"""The transfer suite (tests/transfer/): programs in the style of the learner material people
meet elsewhere, run under PyTorch (recorded) and under ``import minigrad as torch``; what
they print must be the same, character for character (addresses and the package's name
in class paths masked, see ``transfer.run``)."""
import pytest

import transfer


@pytest.mark.parametrize("program", transfer.PROGRAMS,
                         ids=[f"{p.__module__.split('.')[-1]}.{p.__name__}" for p in transfer.PROGRAMS])
def test_program_prints_what_pytorch_prints(oracle, program):
    got, expected = oracle.both(lambda lib: transfer.run(program, lib))
    assert expected.strip(), "the program printed nothing"
    assert got == expected


def test_the_suite_is_large_enough():
    assert len(transfer.PROGRAMS) >= 20
    assert len({p.__name__ for p in transfer.PROGRAMS}) == len(transfer.PROGRAMS)
