"""Could a model's own knowledge tell which nouns in -e take German's plural "-n" and which a loanword's "-s"?

    .venv/bin/python benchmarks/experiments/e_noun_plurals.py --model /work/demo_model

The glossary's rules (attnmt.decoding.term_plurals.plural_endings) give a target in -e spelled as its English source
the loanword's "-s" ("Updates"), but for the nouns German declines as its own: those whose "-n" plural the target
vocabulary holds as one piece (term_ids.declined_whole), and a named list (OWN_E_NOUNS, OWN_E_ENDS).  Two signals
that could replace the list are printed for nouns of both kinds, judged by hand:

- the vocabulary: how it cuts the word, its "-n" form and its "-s" form into pieces;
- the model: the log-prob it gives "Zwei Xn sind hier." minus "Zwei Xs sind hier." for "Two xs are here."
  (teacher-forced, the whole sentence and its end), above 0 where it prefers "-n".

A signal would replace the list where the two kinds fall apart on it.
"""

from __future__ import annotations

import argparse
import math

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.teacher_forcing import score_pair
from attnmt.hardware import cpu_model

# German plural "-s": English loanwords; "-n": nouns German declines as its own (singular: the English source)
LOANS = {"Update": "update", "Website": "website", "Service": "service", "Release": "release",
         "Pipeline": "pipeline", "Feature": "feature", "Template": "template", "Image": "image",
         "Timeline": "timeline", "Device": "device", "Game": "game", "Site": "site"}
OWN = {"Route": "route", "Rose": "rose", "Note": "note", "Minute": "minute", "Phase": "phase", "Zone": "zone",
       "Vase": "vase", "Paste": "paste", "Anemone": "anemone", "Giraffe": "giraffe", "Garage": "garage",
       "Elite": "elite", "Dame": "dame", "Type": "type", "Rate": "rate", "Pose": "pose", "Chance": "chance",
       "Sauce": "sauce", "Olive": "olive", "Orange": "orange", "Marine": "marine", "Turbine": "turbine"}


def pieces(tokenizer, text: str) -> str:
    return "/".join(tokenizer.id_to_piece(i) for i in tokenizer.encode_target(text))


def log_prob(model, tokenizer, source: str, target: str) -> float:
    scored = score_pair(model, tokenizer.encode(source), tokenizer.encode_target(target))
    return sum(math.log(max(p, 1e-30)) for p in scored.probs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="/work/demo_model")
    args = parser.parse_args()
    torch.set_num_threads(2)
    model, tokenizer = load_model_dir(args.model)
    print(f"CPU: {cpu_model()}; model: {args.model}")
    for kind, nouns in (("-s (loanword)", LOANS), ("-n (German's)", OWN)):
        print(f"plural {kind}: word, pieces of X / Xn / Xs, log-prob of Xn minus Xs")
        for target, source in nouns.items():
            margin = (log_prob(model, tokenizer, f"Two {source}s are here.", f"Zwei {target}n sind hier.")
                      - log_prob(model, tokenizer, f"Two {source}s are here.", f"Zwei {target}s sind hier."))
            cut = " ".join(pieces(tokenizer, target + end) for end in ("", "n", "s"))
            print(f"  {target:10} {cut:60} {margin:6.2f}")


if __name__ == "__main__":
    main()
