"""Optional CPU speed-ups with the same numbers as the readable model (tests prove it): packed float32
layers, int8 layers, and the decoder's cached step as one C++ call.

    from attnmt.fast import prepare
    fast = prepare(model)            # or prepare(model, int8=True)
"""

from attnmt.fast.transformer import FastTransformer, prepare

__all__ = ["FastTransformer", "prepare"]
