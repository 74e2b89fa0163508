"""The batch evaluation of scripts/batch_eval.py (its command line) by concern: the job grid
(`jobs`), running it (`pool`: local threads, or `engines.batch.ray_runner` with --ray; `results`: the
results file, resumed and locked; `progress`), the sequential test that can stop it early
(`sprt`), and what is made of the results (`summary`: the table and comparisons; `plot`).

A job (unit) and its engine commands are `engines.batch.units`, which the Ray workers import alone.
"""
