"""``attnmt prepare``, ``train``, ``average`` and ``demo``: from a config to a trained model."""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Callable
from functools import partial
from pathlib import Path

from attnmt.cli.lines import print_out
from attnmt.cli.options import add_model_dir_option, file_name, model_dir_of, positive_int, positive_number
from attnmt.errors import ConfigError, UserError

# The flags of these commands that take a value; every other --key is a config override.
OWN_FLAGS = {"prepare": {"--out"}, "train": {"--resume"}, "demo": {"--minutes", "--config", "--out"}}
# What the demo reads from the attnmt repository, relative to its root, where the demo runs: none of
# them is in the installed package.
DEMO_CONFIG = "configs/multi30k_en_de.yaml"
TEST_SRC = "data/multi30k/test_2016_flickr.en.gz"
TEST_REF = "data/multi30k/test_2016_flickr.de.gz"


def cmd_train(args: argparse.Namespace, extra: dict[str, str | None]) -> int:
    from attnmt.checkpoint import TRAIN_CONFIG
    from attnmt.train_config import check_paths_from_here, load_config
    from attnmt.training.distributed import teardown
    from attnmt.training.run_dir import check_new_run_dir, check_run_to_resume
    from attnmt.training.trainer import resume, train

    overrides = extra
    if not (args.resume or args.config):
        raise ConfigError("give a CONFIG.yaml to train, or --resume MODEL_DIR")
    if args.resume and args.config:
        raise ConfigError(f"--resume continues {args.resume} with its own {TRAIN_CONFIG}, not {args.config}: drop "
                          f"{args.config} (keys can still be overridden, e.g. --max-steps 200000)")
    if args.resume:
        check_run_to_resume(Path(args.resume))
    elif (Path(args.config) / TRAIN_CONFIG).is_file():  # 'attnmt train RUN', meant to continue it
        raise ConfigError(f"{args.config}: a training run's folder, not a config: continue the run with 'attnmt "
                          f"train --resume {args.config}', or give {Path(args.config) / TRAIN_CONFIG} and another "
                          "--out-dir to start a new one from its config")
    # The config is read first: a typo in it or an override is one line at once, not after the
    # kernels' first build (a resume reads its run's train.yaml again, as resume() reads it).
    config = load_config(Path(args.resume) / TRAIN_CONFIG if args.resume else args.config, overrides,
                         merge=bool(args.resume))
    if not args.resume:  # so is an out_dir holding a model (the Trainer checks again, holding the directory)
        check_paths_from_here(config, args.config, overrides)
        check_new_run_dir(config, args.config)
    load_training_kernels()
    # Under torchrun: leave the process group before exiting.  Exiting with it alive
    # let gloo's threads be destroyed running ("terminate called without an active
    # exception", exit -6) now and then.
    try:
        if args.resume:
            resume(args.resume, overrides)
        else:
            train(config)
    except BaseException:
        teardown(finished=False)
        raise
    teardown()
    return 0  # the trainer's last line gave the result: "stopped at step …; best validation …; model in DIR"


def load_training_kernels() -> None:
    """Loads the C++ extension (compiling it the first time) so that training runs its CPU kernels:
    the hashed dropout (attnmt.dropout) and the output loss's rows (attnmt.training.objective).
    Where it cannot load, training runs PyTorch's own ops, slower."""
    from attnmt.fast import extension

    extension.available()


def cmd_prepare(args: argparse.Namespace, extra: dict[str, str | None]) -> int:
    from attnmt.output_checks import check_not_stdout
    from attnmt.train_config import check_no_tilde, check_paths_from_here, load_config
    from attnmt.training.training_data import prepare_config

    config = load_config(args.config, extra)
    check_paths_from_here(config, args.config, [*extra, "prepared_dir"])  # which prepare writes, not reads
    check_no_tilde("--out", args.out)
    out = args.out or config.prepared_dir
    if not out:
        raise ConfigError("say where to write the prepared data: --out DIR, or prepared_dir in the config")
    check_not_stdout(out, "--out" if args.out else "prepared_dir", "the prepared data", "prepared", kind="folder")
    prepare_config(config, out)
    print_out(f"prepared into {out}; train from it with: {train_command(args.config, extra, out)}")
    return 0


def train_command(config: str, overrides: dict[str, str | None], prepared: str) -> str:
    """The ``attnmt train`` command line that trains from what ``prepare`` wrote into ``prepared``:
    the config with the overrides prepare was given, which a run from a prepared directory must
    repeat (its vocabulary is checked against the config's), quoted for a shell; a bare ``--key`` (None)
    again bare."""
    again = [part for key, value in overrides.items() if key != "prepared_dir"
             for part in (f"--{key.replace('_', '-')}", *([] if value is None else [value]))]
    return shlex.join(["attnmt", "train", config, *again, "--prepared-dir", str(prepared)])


def cmd_average(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.output_checks import check_not_an_input, check_not_stdout
    from attnmt.training.averaging import average_checkpoints, last_checkpoints

    check_not_stdout(args.out, "--out", "the averaged weights", "averaged.safetensors")
    model_dir = Path(model_dir_of(args))
    chosen = last_checkpoints(model_dir, args.last)
    check_not_an_input(args.out, "--out", averaging_inputs(model_dir), "averaged.safetensors")
    out = Path(args.out) if args.out else model_dir / "averaged.safetensors"
    folder = weights_folder(out, model_dir)
    if folder is None:
        average_checkpoints(chosen, out)
    else:
        replace_model_weights(folder, chosen)
    print_out(f"averaged {len(chosen)} checkpoints ({', '.join(p.name for p in chosen)}) into {out}")
    return 0


def weights_folder(out: Path, model_dir: Path) -> Path | None:
    """The model folder whose weights ``out`` names (``--out MODEL_DIR/model.safetensors``, or another
    model's), links followed as the write follows them; None for a file of no model's weights."""
    from attnmt.checkpoint import WEIGHTS

    return next((folder for folder in (model_dir, out.parent)
                 if os.path.realpath(folder / WEIGHTS) == os.path.realpath(out)), None)


def replace_model_weights(folder: Path, chosen: list[Path]) -> None:
    """Puts the average of ``chosen`` in the place of the weights of the model in ``folder``.  The
    quality.json beside them was fitted on the weights replaced, and translate's jsonl and tsv and
    serve refuse it: as keep_better_average does, it is fitted again on the run's validation set,
    found as ``attnmt calibrate`` finds it, on the pairs the run scored (run_calibration_pairs: none
    over its max_len), on the new weights before they are put in place (replace_weights: a kill
    leaves the old model or the new one); where none can be, it is removed with one line saying how
    to refit it."""
    from safetensors.torch import save_file

    from attnmt.cli.commands.quality import run_calibration_pairs
    from attnmt.decoding.calibration import CALIBRATION, calibrate_run
    from attnmt.training.averaging import mean_weights
    from attnmt.training.new_weights import fitted_threshold, replace_weights

    mean = mean_weights(chosen)
    refit: Callable[[Path, Path], object] | None = None
    unfitted = ""
    if (folder / CALIBRATION).exists():
        try:
            src, ref, pairs = run_calibration_pairs(str(folder), print_out)
        except UserError as error:
            unfitted = str(error)
        else:
            print_out(f"{folder / CALIBRATION} was fitted on the weights being replaced: fitting it again on {src}")
            refit = partial(calibrate_run, folder, src, ref, print_out, pairs, chrf_threshold=fitted_threshold(folder))
    replace_weights(folder, lambda tmp: save_file(mean, str(tmp)), refit)
    if unfitted:
        print_out(f"removed {folder / CALIBRATION}, fitted on the weights replaced; fit it again with attnmt "
                  f"calibrate --model {folder} ({unfitted})")


def averaging_inputs(model_dir: Path) -> dict[str, str | None]:
    """What ``attnmt average --out`` must not be written over, by the name an error gives each: the
    run's files (attnmt.training.run_dir.run_inputs: its checkpoints', tokenizer, configs, logs, and
    the corpora, validation sets and tokenizer files its train.yaml names).  The model's own
    model.safetensors may take the average (attnmt demo keeps one there): it is no checkpoint's
    file, and the average is not made from it."""
    from attnmt import checkpoint as ckpt
    from attnmt.training.run_dir import run_inputs

    return {name: path for name, path in run_inputs(model_dir).items() if name != f"model's {ckpt.WEIGHTS}"}


def cmd_demo(args: argparse.Namespace, extra: dict[str, str | None]) -> int:
    # The repository's files are checked before the demo is imported: it needs matplotlib (the plot
    # extra), and an installed attnmt run outside the repository lacks the files whatever extra it has.
    if not Path(args.config).exists():  # the default is relative, the file the user named is theirs
        raise ConfigError(f"{DEMO_CONFIG}: not found; run the demo from the attnmt repository root"
                          if args.config == DEMO_CONFIG else f"--config {args.config}: no such config file")
    for test_set in (TEST_SRC, TEST_REF):  # read after training: missing, the demo would fail only then
        if not Path(test_set).is_file():
            raise ConfigError(f"{test_set}: not found; the demo scores its model on this test set, read from "
                              "the current directory: run the demo from the attnmt repository root")
    from attnmt.cli.demo import run_demo
    from attnmt.output_checks import check_not_stdout

    check_not_stdout(args.out, "--out", "the model", "runs/demo", kind="folder")
    run_demo(args.config, args.out, args.minutes, extra)
    return 0


def train_keys_help() -> str:
    """The keys a config (or an override) may set, for ``attnmt train --help``."""
    from attnmt.config import TransformerConfig
    from attnmt.config_options import describe_keys
    from attnmt.train_config import TrainConfig

    return "\n".join([
        "Any config key can be overridden: --key value, --key=value, or, for a boolean key, a bare --key",
        "for true; model keys are dotted (--model.d-model 512). Keys:",
        *[line for line in describe_keys(TrainConfig) if not line.startswith("  --model ")],
        *describe_keys(TransformerConfig, prefix="model."),
    ])


class TrainHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """``attnmt train --help``'s formatter: its epilog, the list of config keys, is built only when
    the help is shown.  Building it reads the config classes' source (``describe_keys``), 15 ms
    that every other command's start would pay for nothing."""

    def add_text(self, text: str | None) -> None:
        super().add_text(train_keys_help() if text is TRAIN_KEYS else text)


TRAIN_KEYS = "(the config keys)"  # train's epilog, replaced by train_keys_help() when the help is shown


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser(
        "prepare", help="tokenise and filter a config's training corpora once, into token arrays on disk "
        "that 'attnmt train' reads (--prepared-dir)", epilog="Overrides as for 'attnmt train'.")
    p.add_argument("config", help="YAML config naming the corpora, the tokenizer and the filters")
    p.add_argument("--out", type=file_name, help="directory to write (default: the config's prepared_dir)")
    p.set_defaults(run=cmd_prepare)

    p = commands.add_parser(
        "train", help="train a model from a YAML config (extra --key value pairs override it)",
        formatter_class=TrainHelpFormatter, epilog=TRAIN_KEYS)
    p.add_argument("config", nargs="?", help="YAML config, e.g. configs/multi30k_en_de.yaml")
    p.add_argument("--resume", metavar="MODEL_DIR", type=file_name,
                   help="continue a run exactly where it stopped, with its own config (give no CONFIG)")
    p.set_defaults(run=cmd_train)

    p = commands.add_parser("average", help="average the last N checkpoints' weights")
    add_model_dir_option(p)
    p.add_argument("--last", type=positive_int, default=5, metavar="N",
                   help="how many of the newest checkpoints to average (default 5, as the paper; fewer where "
                   "there are fewer)")
    p.add_argument("--out", help="weights file to write (default MODEL_DIR/averaged.safetensors)")
    p.set_defaults(run=cmd_average)

    p = commands.add_parser("demo", help="train on Multi30k within a time budget, score it and translate examples")
    p.add_argument("--minutes", type=positive_number, default=15.0,
                   help="training time budget in minutes, a number above 0 (default 15)")
    p.add_argument("--config", default=DEMO_CONFIG, type=file_name,
                   help=f"YAML config to train (default {DEMO_CONFIG}, from the attnmt repository root)")
    p.add_argument("--out", default="runs/demo", type=file_name, help="model directory to write (default runs/demo)")
    p.set_defaults(run=cmd_demo)
