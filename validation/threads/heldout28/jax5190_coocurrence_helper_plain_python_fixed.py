# source: https://github.com/jax-ml/jax/issues/5190
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: the same helper without the jit decorator runs as plain Python (scipy lil_matrix, dict lookups), so nothing is hashed or traced and the call returns the counts (0 compiles of coocurrence_helper, 1 call).
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



from functools import partial  # scaffolding: the imports were not shown
from typing import Dict  # scaffolding
import numpy as np  # scaffolding
from jax import jit  # scaffolding
from scipy.sparse import lil_matrix, csr_matrix  # scaffolding


class pd:  # scaffolding: pandas is not installed; only the annotation name is needed
    DataFrame = object  # scaffolding


def optimize(df):  # scaffolding: the user's dtype-shrinking helper was not shown
    return df  # scaffolding


# @partial(jit, static_argnums=(0, 1,))  # fix: jit dropped, the helper is scipy.sparse and dict code, not traceable array code
def coocurrence_helper(pairs: np.array, label_map: Dict) -> lil_matrix:
    uniques = lil_matrix(np.zeros((len(label_map), len(label_map))).astype("int32"))
    for item in pairs:
        if item[0]!=item[1]:
            uniques[label_map[item[0]], label_map[item[1]]] += 1
    return uniques


def _get_pairwise_frequencies(
     data: pd.DataFrame, crosstab=False
    ) -> pd.DataFrame:
        values = data.stack()
        values.index = values.index.droplevel(1)
        values.name = "vals"
        values = optimize(values.to_frame())
        pair = optimize(values.join(values, rsuffix="_2"))
        label_map = dict()
        for lbl, each in enumerate(values.vals.unique()):
            label_map[each] = lbl
        if not crosstab:
            freq = coocurrence_helper(pairs = pair.values, label_map=label_map)
            return ((freq / freq.sum(1).ravel()).astype(np.float32))
        else:
            freq = pd.crosstab(pair["vals"], pair["vals_2"])
            self.index = freq.index
            return csr_matrix((freq / freq.sum(1)).astype(np.float32))


# scaffolding: the same call as in _get_pairwise_frequencies, on the numpy values a
# two-column DataFrame self-join gives (pandas is not installed)
pair_values = np.array([["a", "a"], ["a", "b"], ["b", "a"], ["b", "c"], ["c", "a"]])  # scaffolding
label_map = dict()  # scaffolding
for lbl, each in enumerate(np.unique(pair_values[:, 0])):  # scaffolding
    label_map[each] = lbl  # scaffolding
try:  # scaffolding
    freq = coocurrence_helper(pairs = pair_values, label_map=label_map)  # scaffolding
    _report({"jit(coocurrence_helper)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
