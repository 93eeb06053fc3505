"""Learn to play Pitch from self-play with numpy only, and watch it improve.

A linear softmax policy (one weight row per action over the observation vector of
``pitch.rl``) plays every seat of K batched one-hand games (``PitchVectorEnv``);
REINFORCE with a batch-mean baseline and Adam raises the probability of the actions
of seats whose side scored above average. Every few updates the policy plays seat 0
against our bots through the Gymnasium environment on fixed deals, and the mean
score per hand is plotted.

    python examples/train_selfplay.py                 # about two minutes
    python examples/train_selfplay.py --updates 400 --plot learning.png

Needs ``pip install 'pitch[rl]'`` (numpy, gymnasium, matplotlib).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pitch.bots import BOTS
from pitch.engine import NUM_ACTIONS, Rules
from pitch.rl.gym_env import PitchGymEnv
from pitch.rl.vector_env import PitchVectorEnv

Array = npt.NDArray[np.float64]


class LinearPolicy:
    """``softmax(W @ obs + b)`` over the legal actions, trained with Adam."""

    def __init__(self, obs_size: int, lr: float, rng: np.random.Generator) -> None:
        self.w = np.zeros((NUM_ACTIONS, obs_size + 1))
        self.lr = lr
        self.rng = rng
        self.m = np.zeros_like(self.w)
        self.v = np.zeros_like(self.w)
        self.t = 0

    def probs(self, obs: Array, mask: Array) -> Array:
        x = np.concatenate([obs, np.ones((len(obs), 1))], axis=1)
        logits = x @ self.w.T
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        out: Array = p / p.sum(axis=1, keepdims=True)
        return out

    def sample(self, obs: Array, mask: Array) -> npt.NDArray[np.int64]:
        p = self.probs(obs, mask)
        u = self.rng.random((len(p), 1))
        picks: npt.NDArray[np.int64] = (p.cumsum(axis=1) < u).sum(axis=1)
        return np.minimum(picks, NUM_ACTIONS - 1)

    def update(self, obs: Array, mask: Array, actions: Array, adv: Array) -> None:
        """One REINFORCE step: ascend ``mean(adv * grad log pi(a | obs))``."""
        x = np.concatenate([obs, np.ones((len(obs), 1))], axis=1)
        g = -self.probs(obs, mask)
        g[np.arange(len(actions)), actions] += 1.0
        grad = (g * adv[:, None]).T @ x / len(x)
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        m_hat = self.m / (1 - 0.9**self.t)
        v_hat = self.v / (1 - 0.999**self.t)
        self.w += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def self_play_batch(
    venv: PitchVectorEnv, policy: LinearPolicy, hands: int
) -> tuple[Array, Array, Array, Array]:
    """Play until ``hands`` hands have finished; every decision is paid its seat's
    score change for the hand it was made in."""
    obs, mask, seat = venv.reset(seed=int(policy.rng.integers(2**31)))
    k = venv.num_envs
    pending: list[list[tuple[int, int]]] = [[] for _ in range(k)]  # (row, seat) per game
    rows_obs, rows_mask, rows_act, rows_ret = [], [], [], []
    done_hands = 0
    while done_hands < hands:
        actions = policy.sample(obs, mask)
        base = len(rows_obs)
        rows_obs.extend(obs)
        rows_mask.extend(mask)
        rows_act.extend(actions)
        rows_ret.extend([0.0] * k)
        for i in range(k):
            pending[i].append((base + i, int(seat[i])))
        obs, mask, seat, rewards, term, trunc = venv.step(actions)
        for i in np.flatnonzero(term | trunc):
            for row, s in pending[i]:
                rows_ret[row] = float(rewards[i, s])
            pending[i] = []
            done_hands += 1
    finished = [row for i in range(k) for row, _ in pending[i]]
    keep = np.setdiff1d(np.arange(len(rows_obs)), finished)  # drop unfinished hands
    return (
        np.asarray(rows_obs)[keep],
        np.asarray(rows_mask)[keep],
        np.asarray(rows_act)[keep],
        np.asarray(rows_ret)[keep],
    )


def evaluate(policy: LinearPolicy, rules: Rules, opponent: str, hands: int, seed: int) -> float:
    """Mean score change per hand of seat 0 (sampling from the policy; untrained, it
    is uniform, i.e. the random bot) against ``opponent`` in the other seats, over
    the same ``hands`` deals every time."""
    env = PitchGymEnv(rules=rules, seat=0, opponents=opponent, mode="hand")
    saved, policy.rng = policy.rng, np.random.default_rng(seed)
    total = 0.0
    for h in range(hands):
        obs, _ = env.reset(seed=seed + h)
        done = False
        while not done:
            a = policy.sample(obs["observation"][None, :], obs["action_mask"][None, :])[0]
            obs, reward, term, trunc, _ = env.step(int(a))
            total += float(reward)
            done = term or trunc
    policy.rng = saved
    return total / hands


def main(argv: list[str] | None = None) -> dict[str, list[float]]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--updates", type=int, default=60, help="policy updates")
    ap.add_argument("--hands", type=int, default=64, help="self-play hands per update")
    ap.add_argument("--envs", type=int, default=64, help="games stepped together")
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--eval-every", type=int, default=15)
    ap.add_argument("--eval-hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", type=Path, default=Path("selfplay.png"))
    args = ap.parse_args(argv)

    rules = Rules(players=args.players)
    venv = PitchVectorEnv(args.envs, rules=rules, mode="hand")
    policy = LinearPolicy(venv.encoding.size, args.lr, np.random.default_rng(args.seed))
    opponents = ["random"] + (["heuristic"] if "heuristic" in BOTS else [])
    curves: dict[str, list[float]] = {name: [] for name in opponents}
    xs: list[int] = []
    t0 = time.perf_counter()
    for update in range(args.updates + 1):
        if update % args.eval_every == 0 or update == args.updates:
            xs.append(update * args.hands)
            line = [f"after {xs[-1]:6d} hands ({time.perf_counter() - t0:5.1f} s):"]
            for name in opponents:
                score = evaluate(policy, rules, name, args.eval_hands, 10_000)
                curves[name].append(score)
                line.append(f"vs {name} {score:+.3f}/hand")
            print(" ".join(line), flush=True)
        if update == args.updates:
            break
        obs, mask, act, ret = self_play_batch(venv, policy, args.hands)
        adv = ret - ret.mean()
        policy.update(obs, mask, act, adv / (adv.std() + 1e-8))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, ys in curves.items():
        ax.plot(xs, ys, marker="o", label=f"vs {name}")
    ax.axhline(0.0, color="grey", lw=0.5)
    ax.set_xlabel("self-play hands")
    ax.set_ylabel("seat 0 score change per hand")
    ax.set_title(f"Linear policy, REINFORCE self-play ({args.players} players)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.plot)
    print(f"plot saved to {args.plot}")
    return curves | {"hands": [float(x) for x in xs]}


if __name__ == "__main__":
    main()
