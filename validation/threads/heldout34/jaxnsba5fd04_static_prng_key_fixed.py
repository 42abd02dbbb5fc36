# source: https://github.com/Joshuaalbert/jaxns/commit/ba5fd044cee6d5fc4f8eed6e04f7b5b9da548541
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: With @partial(jax.jit) and no static arguments (and BFGS instead of NonlinearCG, as in the commit), the key is an ordinary traced argument and four M-step epochs compile once.

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
from functools import partial
from typing import Tuple, Any, NamedTuple

import jax
import numpy as np
from jax import numpy as jnp, random
from jax.scipy.special import logsumexp
from jaxopt import BFGS

PRNGKey = jax.Array  # (jaxns.internals.types)


class MStepData(NamedTuple):
    U_samples: jax.Array
    log_weights: jax.Array


@dataclasses.dataclass(eq=False)
class EvidenceMaximisation:  # (jaxns/experimental/evidence_maximisation.py, trimmed to the M-step)
    verbose: bool = False
    max_num_epochs: int = 4
    gtol: float = 1e-4

    def __post_init__(self):
        self._m_step = self._create_m_step()

    def _create_m_step(self):

        def log_evidence(params, data: MStepData):  # scaffolding: stands in for the nested-sampling model's evidence
            log_L = -0.5 * jnp.sum((data.U_samples - params["mu"]) ** 2 / params["sigma"] ** 2, axis=-1)
            return logsumexp(log_L + data.log_weights)

        def loss(params, data: MStepData):
            log_Z, grad = jax.value_and_grad(log_evidence, argnums=0)(params, data)
            obj = -log_Z
            grad = jax.tree.map(jnp.negative, grad)
            aux = (log_Z,)
            if self.verbose:
                jax.debug.print("log_Z={log_Z}", log_Z=log_Z)
            return (obj, aux), grad

        solver = BFGS(
            fun=loss,
            has_aux=True,
            value_and_grad=True,
            jit=True,
            unroll=False,
            verbose=False
        )

        @partial(jax.jit)
        def _m_step(key: PRNGKey, params, data: MStepData) -> Tuple[Any, Any]:
            """
            The M-step is just evidence maximisation.

            Args:
                params: The parameters to use.
                data: The data to use.

            Returns:
                The updated parameters and the negative log evidence.
            """
            opt_results = solver.run(init_params=params, data=data)
            return opt_results.params, opt_results.state.aux

        return _m_step

    def m_step(self, key: PRNGKey, params, data: MStepData):  # (ns_results padding and progress bar trimmed)
        last_params = params
        epoch = 0
        log_Z = None
        while epoch < self.max_num_epochs:
            params, (log_Z,) = self._m_step(key=key, params=params, data=data)
            l_oo = jax.tree.map(lambda x, y: jnp.max(jnp.abs(x - y)) if np.size(x) > 0 else 0.,
                                last_params, params)
            last_params = params
            if all(_l_oo < self.gtol for _l_oo in jax.tree.leaves(l_oo)):
                break
            epoch += 1

        return params, log_Z


em = EvidenceMaximisation(gtol=-1.0)  # scaffolding: never "converges", so the M-step runs max_num_epochs=4 times
data = MStepData(U_samples=random.uniform(random.PRNGKey(1), (64, 2)), log_weights=jnp.full((64,), -jnp.log(64.0)))  # scaffolding
params = {"mu": jnp.array([0.3, 0.6]), "sigma": jnp.array([0.5, 0.5])}  # scaffolding
params, log_Z = em.m_step(key=random.PRNGKey(0), params=params, data=data)
_report({"jit(_m_step)"}, 4)
