"""The constrained search's values read once a step (attnmt.decoding.banks.per_step): built once a step, and
equal at every step to what a fresh computation from the hypotheses' state gives."""

import torch
from support import ending_model

from attnmt.decoding import Decoding
from attnmt.decoding.constraints import Constraints
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_ids import Term

SOURCES = torch.tensor([[9, 10, 11, 0, 0], [12, 13, 14, 15, 16], [17, 18, 0, 0, 0], [19, 20, 21, 22, 0]])
# Terms with other forms (term_ids.Term), so that forms of one term are alike; sentence 2 has none.
TERMS = [[Term([30, 31], [[29, 30, 31]])], [[32], Term([37, 38], [[39, 38]])], [], [[33, 34, 35], [36]]]


def test_the_forms_alike_are_built_once_a_step_and_equal_a_fresh_comparison_at_every_step(monkeypatch):
    """``alike`` [N, C, C] was built by each call of ``written`` (all_met, wanted, advance twice) and once more in
    ``advance``: five times a step.  Now once: every read in a step gives the one tensor, read by all_met, wanted
    and advance, and it is what the hypotheses' state gives at that step, while the sentences that finish leave."""
    reads: list[tuple[int, torch.Tensor]] = []  # (step, what it gave); each kept, so no two builds share an id
    steps = [0]
    alike, keep = Constraints.alike, Constraints.keep

    def checked(self: Constraints) -> torch.Tensor:
        given = alike(self)
        groups = torch.arange(self.met.size(0)) // (self.met.size(0) // self.terms.size(0))
        term = self.term[groups]
        assert torch.equal(given, term[:, :, None] == term[:, None, :]), steps[0]
        reads.append((steps[0], given))
        return given

    def stepped(self: Constraints, *args: object) -> None:
        steps[0] += 1
        keep(self, *args)

    monkeypatch.setattr(Constraints, "alike", checked)
    monkeypatch.setattr(Constraints, "keep", stepped)
    found = beam_search(ending_model(), SOURCES, Decoding(beam_size=3), terms=TERMS)
    assert all(h.missed == 0 for hypotheses in found for h in hypotheses)
    read_in = sorted({step for step, _ in reads})
    assert read_in == list(range(steps[0])) and steps[0] >= 3  # read at every step (none after the last keep)
    assert len({given.shape for _, given in reads}) >= 2  # sentences left the batch on the way
    for step in read_in:
        given = [tensor for at, tensor in reads if at == step]
        assert len(given) >= 3 and len({id(tensor) for tensor in given}) == 1, step  # one build, read 3 times
