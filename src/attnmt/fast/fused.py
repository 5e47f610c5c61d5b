"""The old home of the C++ step's Python side, split by job: attnmt.fast.extension (building and
loading the extension), attnmt.fast.step (the step and its weights), attnmt.fast.panels
(PanelLinear), attnmt.fast.cache (the caches) and attnmt.fast.next_tokens (the next tokens and
the batch size).  Importing it still works, with a DeprecationWarning, for one release."""

import warnings

from attnmt.fast.cache import Float16LayerCache, GrowingCache, to_float16
from attnmt.fast.extension import available, build_directory, cache_root
from attnmt.fast.next_tokens import FusedNextTokens
from attnmt.fast.panels import PanelLinear, float_panels_for, use_float_panels
from attnmt.fast.step import FusedDecoderStep

__all__ = ["Float16LayerCache", "FusedDecoderStep", "FusedNextTokens", "GrowingCache", "PanelLinear", "available",
           "build_directory", "cache_root", "float_panels_for", "to_float16", "use_float_panels"]

warnings.warn("attnmt.fast.fused is split into attnmt.fast.extension, step, panels, cache and next_tokens; "
              "import from those", DeprecationWarning, stacklevel=2)
