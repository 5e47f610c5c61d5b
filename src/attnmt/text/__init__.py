"""Text and token ids: the SentencePiece tokenizer, the Marian vocabulary of imported models, the
files that hold a model's tokenizer, and reading text files into sentence pairs and padded batches."""
