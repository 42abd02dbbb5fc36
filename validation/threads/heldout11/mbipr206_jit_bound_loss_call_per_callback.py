# source: https://github.com/ryan112358/mbi/pull/206
# expect: jit-in-loop-or-body at line 219
# runtime: COMPILES 7 CALLS 6
# why: callbacks.default wraps each loss's bound __call__ in a fresh jax.jit every time a callback is built, with the measurement data baked in through self, so each estimation run on new measurements recompiles both losses (seven compiles for six logged rows; the jitted module-level primal_feasibility compiles once).

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
import dataclasses
import types  # scaffolding
from typing import Any, Callable, Sequence  # scaffolding

import jax
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding


# --- scaffolding: minimal stand-ins for mbi.estimation, mbi.marginal_loss, CliqueVector, LinearMeasurement ---
estimation = types.SimpleNamespace(CALLBACK_EVERY=50)
Domain = Projectable = Any


class _Factor:  # scaffolding
  def __init__(self, values, attrs):
    self.values, self.attrs = values, tuple(attrs)

  def project(self, attrs):
    axes = tuple(i for i, a in enumerate(self.attrs) if a not in attrs)
    return _Factor(self.values.sum(axis=axes), [a for a in self.attrs if a in attrs])

  def datavector(self, flatten=True):
    return self.values.reshape(-1) if flatten else self.values


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class CliqueVector:  # scaffolding
  cliques: tuple = jax.tree.static()
  arrays: tuple = ()

  def __getitem__(self, clique):
    return _Factor(self.arrays[self.cliques.index(clique)], clique)

  def project(self, attrs):
    for cl in self.cliques:
      if set(attrs) <= set(cl):
        return self[cl].project(attrs).values
    raise ValueError(attrs)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class LinearMeasurement:  # scaffolding
  noisy_measurement: Any
  clique: tuple = jax.tree.static()
  stddev: float = 1.0

  def query(self, mu):
    return mu


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class MarginalLossFn:
  cliques: Sequence = jax.tree.static()
  loss_fn: Callable = jax.tree.static()
  data: Any = ()
  lipschitz: float = 1.0

  def __post_init__(self):
    object.__setattr__(self, "cliques", tuple(self.cliques))

  def __call__(self, marginals):
    return self.loss_fn(marginals, self.data)


def _l2_loss(marginals, measurements):
  loss = 0.0
  for M in measurements:
    mu = marginals.project(M.clique)
    stddev = jnp.maximum(M.stddev, 1e-12)
    diff = (M.query(mu) - M.noisy_measurement) / stddev
    loss += 0.5 * jnp.vdot(diff, diff)
  return loss


def _l1_loss(marginals, measurements):
  loss = 0.0
  for M in measurements:
    mu = marginals.project(M.clique)
    stddev = jnp.maximum(M.stddev, 1e-12)
    diff = (M.query(mu) - M.noisy_measurement) / stddev
    loss += jnp.sum(jnp.abs(diff))
  return loss


def _normalized_l2_loss(marginals, measurements):
  loss = _l2_loss(marginals, measurements)
  total = marginals.project(())
  return jnp.sqrt(loss / len(measurements) / total)


def _normalized_l1_loss(marginals, measurements):
  loss = _l1_loss(marginals, measurements)
  total = marginals.project(())
  return loss / len(measurements) / total


def from_linear_measurements(measurements, domain, norm="l2", normalize=False):  # scaffolding: no Lipschitz estimate
  cliques = [m.clique for m in measurements]
  data = tuple(measurements)
  if normalize:
    loss_fn = _normalized_l2_loss if norm == "l2" else _normalized_l1_loss
  else:
    loss_fn = _l2_loss if norm == "l2" else _l1_loss
  return MarginalLossFn(cliques, loss_fn, data)


def primal_feasibility(mu):
  ans = 0
  count = 0
  for r in mu.cliques:
    for s in mu.cliques:
      if r == s:
        break
      d = tuple(set(r) & set(s))
      if len(d) > 0:
        x = mu[r].project(d).datavector()
        y = mu[s].project(d).datavector()
        denom = 0.5 * x.sum() + 0.5 * y.sum()
        err = jnp.linalg.norm(x - y, 1) / denom
        ans += err
        count += 1
  try:
    return ans / count
  except Exception:  # pylint: disable=broad-exception-caught
    return 0


marginal_loss = types.SimpleNamespace(
    MarginalLossFn=MarginalLossFn, from_linear_measurements=from_linear_measurements,
    primal_feasibility=primal_feasibility)
# --- end scaffolding stand-ins; below is src/mbi/callbacks.py before PR #206 ---

_log_fn = print


def log(*args, **kwargs):
  """Log a message using the configured log function."""
  _log_fn(*args, **kwargs)


def _pad(string: str, length: int):
  """Pads a string with spaces on both sides to a target length."""
  if len(string) > length:
    return string[:length]
  left_pad = (length - len(string)) // 2
  right_pad = length - len(string) - left_pad
  return " " * left_pad + string + " " * right_pad


@dataclasses.dataclass
class Callback:
  loss_fns: dict[str, marginal_loss.MarginalLossFn]
  _call: int = 0
  _logs: list = dataclasses.field(default_factory=list)

  def __call__(self, marginals: CliqueVector) -> None:
    step = self._call * estimation.CALLBACK_EVERY
    if self._call == 0:
      header = "|".join([_pad(x, 12) for x in ["step", *self.loss_fns.keys()]])
      log(header)
      log("=" * len(header))
    row = [self.loss_fns[key](marginals) for key in self.loss_fns]
    self._logs.append([step] + row)
    padded_step = str(step) + " " * (9 - len(str(step)))
    log(padded_step, *[f"{v:.6f}"[:6] for v in row], sep="   |   ")
    self._call += 1


def default(
    measurements: list[LinearMeasurement],
    domain: Domain,
    data: Projectable | None = None,
) -> Callback:
  """Creates a default Callback with standard loss functions."""
  loss_fns = {
      "L2 Loss": marginal_loss.from_linear_measurements(
          measurements, domain, norm="l2", normalize=True
      ),
      "L1 Loss": marginal_loss.from_linear_measurements(
          measurements,
          domain,
          norm="l1",
          normalize=True,
      ),
  }

  loss_fns = {key: jax.jit(val.__call__) for key, val in loss_fns.items()}
  loss_fns["Primal Feas"] = jax.jit(marginal_loss.primal_feasibility)

  return Callback(loss_fns)


# scaffolding: three estimation runs on fresh noisy measurements of the same two 2-way marginals,
# each logging its callback twice
rng = np.random.default_rng(0)  # scaffolding
cliques = (("A", "B"), ("B", "C"))  # scaffolding
marginals = CliqueVector(cliques, (jnp.full((2, 3), 5.0), jnp.full((3, 2), 5.0)))  # scaffolding
calls = 0  # scaffolding
for run in range(3):  # scaffolding
  measurements = [LinearMeasurement(jnp.asarray(rng.normal(5.0, 1.0, size=s)), cl, 1.0)  # scaffolding
                  for cl, s in zip(cliques, [(2, 3), (3, 2)])]  # scaffolding
  callback = default(measurements, None)  # scaffolding
  for _ in range(2):  # scaffolding
    callback(marginals)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(__call__)", "jit(primal_feasibility)", "jit(_compute_row)"}, calls)  # scaffolding
