# source: https://github.com/konstantin-a-maslov/glaunti/blob/764da514d6ecbb82736ee7048c814c23eccfd9b4/core/loss.py
# expect: shape-churn at line 72
# runtime: COMPILES 4 CALLS 5
# why: update_metrics passes the filtered stake readings of each glacier-year to the jitted _point_mse_add; their number differs from year to year, so every new count is a new input shape and _point_mse_add compiles again.

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
import math
import numpy as np
import jax
import jax.numpy as jnp


class _Col(np.ndarray):  # scaffolding: minimal stand-in for the pandas API used by update_metrics (pandas is not installed)
    @property
    def iloc(self):
        return self


class _Frame:  # scaffolding
    def __init__(self, **cols):
        self._cols = {k: np.asarray(v).view(_Col) for k, v in cols.items()}

    def __getattr__(self, name):
        return self.__dict__["_cols"][name]

    def __getitem__(self, key):
        if isinstance(key, str):
            return self._cols[key]
        return _Frame(**{k: v[np.asarray(key)] for k, v in self._cols.items()})

    def __len__(self):
        return len(next(iter(self._cols.values())))


class pandas:  # scaffolding
    @staticmethod
    def isna(v):
        return v is None or (isinstance(v, float) and math.isnan(v))


# --- core/loss.py ---
def update_metrics(aux, smb, y, outlines, balance_code):
    point_smb = y["point"]
    if point_smb is not None:
        point_smb = point_smb[point_smb.balance_code == balance_code]
        if len(point_smb) > 0:
            rows, cols = jnp.asarray(point_smb.row), jnp.asarray(point_smb.col)
            balances = jnp.asarray(point_smb.balance)
            weights = jnp.asarray(point_smb.weight)
            err_acc, w_acc = _point_mse_add(smb, rows, cols, balances, weights)
            aux[f"point_{balance_code}_n"] += w_acc
            aux[f"point_{balance_code}_error"] += err_acc
            
    total_smb = y["total"][f"{balance_code}_balance"].iloc[0]
    if not pandas.isna(total_smb):
        total_error = _total_mse_add(smb, outlines, total_smb)
        aux[f"total_{balance_code}_n"] += 1
        aux[f"total_{balance_code}_error"] += total_error

    if aux[f"point_{balance_code}_n"] > 0:
        aux[f"point_{balance_code}_mse"] = aux[f"point_{balance_code}_error"] / aux[f"point_{balance_code}_n"]
    else:
        aux[f"point_{balance_code}_mse"] = None
    
    if aux[f"total_{balance_code}_n"] > 0:
        aux[f"total_{balance_code}_mse"] = aux[f"total_{balance_code}_error"] / aux[f"total_{balance_code}_n"]
    else:
        aux[f"total_{balance_code}_mse"] = None

    return aux


@jax.jit
def _point_mse_add(smb, rows, cols, balances, weights):
    vals = smb[rows, cols]
    diff = vals - balances
    err_acc = jnp.sum(weights * jnp.square(diff))
    w_acc = jnp.sum(weights)
    return err_acc, w_acc


@jax.jit
def _total_mse_add(smb, outlines, target_total):
    denom = jnp.sum(outlines)
    num = jnp.sum(outlines * smb)
    err = jnp.square((num / denom - target_total))
    return err


# scaffolding: one glacier grid and five years of stake data; the number of annual stake
# readings differs from year to year, as in the glaciological records the loss iterates over
rng = np.random.default_rng(0)
smb = jnp.asarray(rng.normal(size=(20, 20)), dtype=jnp.float32)
outlines = jnp.ones((20, 20))
aux = {"point_annual_n": 0, "point_annual_error": 0, "total_annual_n": 0, "total_annual_error": 0}
n_stakes_per_year = [6, 9, 6, 4, 11]
for n in n_stakes_per_year:
    y = {
        "point": _Frame(balance_code=np.array(["annual"] * n), row=rng.integers(0, 20, n), col=rng.integers(0, 20, n),
                        balance=rng.normal(size=n).astype(np.float32), weight=np.ones(n, np.float32)),
        "total": _Frame(annual_balance=np.array([-0.5])),
    }
    aux = update_metrics(aux, smb, y, outlines, "annual")
print(float(aux["point_annual_mse"]))
_report({"jit(_point_mse_add)"}, len(n_stakes_per_year))
