"""The code points a scan of Unicode's categories reads: those of the Basic Multilingual Plane outside the blocks
that hold no mark and no sign in any Unicode version, the CJK ideographs (and Extension A) and the Hangul syllables,
all letters (Lo), and the surrogates and the private use area (Cs, Co).  Scanned at import, the combining marks
(attnmt.decoding.protected) and the currency signs (attnmt.documents.measures) take a third of the time they took
over the whole plane (issue 44: a one-line job's start-up)."""

from itertools import chain

OUTSIDE_IDEOGRAPHS = (range(0x3400), range(0x4DC0, 0x4E00), range(0xA000, 0xAC00), range(0xD7A4, 0xD800),
                      range(0xF900, 0x10000))


def scanned_code_points() -> chain[int]:
    """Each code point of ``OUTSIDE_IDEOGRAPHS``, in order."""
    return chain(*OUTSIDE_IDEOGRAPHS)
