"""Text and token ids: the SentencePiece tokenizer and its training, the Marian vocabulary of
imported models, the files that hold a model's tokenizer, reading text files into sentence pairs
and padded batches, naming UTF-16 given for UTF-8 (encodings), and JSON records written one to a
line (json_lines)."""
