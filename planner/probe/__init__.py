"""Probing from one demonstrated task: where does an app become sensitive?

From a seed (one demonstrated trajectory, or a stored demonstration), the prober
runs batches of five stages::

    generation   a proxy user (an LLM with prompts/probe.yaml, or the offline
                 proposer) proposes new single-task queries for the same app, each
                 with steps {uiSummary, actionPurpose, category};    (proposers.py)
    selection    a query whose cosine similarity to a query of its batch already
                 kept, or of the pool, is >= tau (0.85) is dropped;  (selection.py)
    saturation   the cumulative count of kept queries is fitted per batch; when the
                 slope of a coarse 3-point fit over the last three batches falls to
                 ``ratio`` (0.3) of the first three batches' slope (the elbow), twice
                 in consecutive batches, probing stops (or at ``max_batches``);
    roll-out     each kept query runs on the phone with the planner, handover and
                 safety stops included; its query, steps, the categories of the
                 screens it met and their embeddings go into the memory bank;
    novelty      query novelty from k-means of the bank's query embeddings (cluster
                 count at the elbow of the inertia curve): 1 - (cluster size - 1) / N;
                 step novelty: mean over its steps of (1 - the highest similarity to
                 a step of another entry); category novelty: the share of its
                 sensitive categories no earlier entry met; reward
                 R = query x (step + category).                      (bank.py)

The bank is saved as ``bank.json`` and exported as ``sft.jsonl`` (one chat
transcript per roll-out that succeeded or handed over) and ``grpo.jsonl`` (one
prompt per query with its reward and novelty parts).

    prober = Prober(seed, LLMProposer(llm), encode, rollout, out=Path("probe"))
    result = prober.run()
"""

from screenpilot.planner.encoding import Encoder
from screenpilot.planner.probe.bank import BankEntry, MemoryBank
from screenpilot.planner.probe.clusters import elbow_k, kmeans
from screenpilot.planner.probe.prober import BatchReport, Prober, ProbeResult, Rollout
from screenpilot.planner.probe.proposers import (
    LLMProposer,
    OfflineProposer,
    Proposer,
    parse_queries,
    probe_prompt,
)
from screenpilot.planner.probe.queries import (
    CATEGORIES,
    Query,
    QueryStep,
    Seed,
    step_category,
    summarise_screen,
)
from screenpilot.planner.probe.selection import Dropped, at_elbow, saturated, select

__all__ = [
    "CATEGORIES",
    "BankEntry",
    "BatchReport",
    "Dropped",
    "Encoder",
    "LLMProposer",
    "MemoryBank",
    "OfflineProposer",
    "ProbeResult",
    "Prober",
    "Proposer",
    "Query",
    "QueryStep",
    "Rollout",
    "Seed",
    "at_elbow",
    "elbow_k",
    "kmeans",
    "parse_queries",
    "probe_prompt",
    "saturated",
    "select",
    "step_category",
    "summarise_screen",
]
