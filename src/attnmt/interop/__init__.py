"""Other engines' formats: Hugging Face Marian import and export, CTranslate2 export."""

# CTranslate2's weight types that the export writes (``attnmt export --quantization``): here, so that the command
# line's parser offers them without loading the exporter in every command (issue 44).
QUANTIZATIONS = ("int8", "int8_float32", "int8_float16", "int8_bfloat16", "int16", "float16", "bfloat16",
                 "float32")
