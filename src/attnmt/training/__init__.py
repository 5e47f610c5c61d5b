"""Training: the trainer (Adam with warm-up, validation, checkpoints, exact resume), the objective
(label smoothing, the learning-rate schedule) and data parallelism."""
