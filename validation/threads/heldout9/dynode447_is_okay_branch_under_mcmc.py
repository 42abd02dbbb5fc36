# source: https://github.com/CDCgov/DynODE/issues/447
# expect: trace-time-error at line 60
# runtime: ERROR TracerBoolConversionError
# why: simulate() solves with throw=False and then branches in Python on `not is_okay(solution.result)`; called on its own the result is a concrete array and this works, but inside a numpyro model run by MCMC the solve is traced (NUTS initialisation runs the model under jit/while_loop), so the `if` converts a traced bool and raises TracerBoolConversionError.

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
import jax.numpy as jnp
import jax.random as jr
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS
from diffrax import (  # type: ignore
    ODETerm,
    ConstantStepSize,
    SaveAt,
    Solution,
    Tsit5,
    diffeqsolve,
    is_okay,
)
from jax.debug import callback


def simulate(ode, duration_days, initial_state, ode_parameters, max_steps):  # scaffolding: trimmed signature
    solution = diffeqsolve(
        ODETerm(ode),
        Tsit5(),
        t0=0.0,
        t1=duration_days,
        dt0=0.5,
        y0=initial_state,
        args=ode_parameters,
        stepsize_controller=ConstantStepSize(),  # scaffolding: DynODE builds a PID controller from SolverParams
        saveat=SaveAt(ts=jnp.linspace(0.0, duration_days, 5)),
        max_steps=max_steps,
        throw=False,
    )
    if not is_okay(solution.result):
        # if the solve failed, log the solution using jax's callback functions
        callback(log_failed_diffrax_solve, solution, ode_parameters)
        raise RuntimeError(solution.result)
    return solution


def log_failed_diffrax_solve(
    solution: Solution, ode_parameters
) -> None:
    # None if no infs are found, otherwise the index of the first inf in that compartment
    compartment_inf_exists = []
    for timeseries in solution.ys:
        compartment_inf_exists.append(
            # scans across first dimension of `timeseries` (time)
            # for compartment states with infs, returns index of the first one found.
            next(
                (i for i, y in enumerate(timeseries) if jnp.any(jnp.isinf(y))),
                None,
            )
        )
    print(  # scaffolding: logger.error in DynODE
        "ODE solve failed with result: %s, \n"
        "ode_parameters: %s, \n"
        "first index with inf by compartment (often sign of an untracked discontinuity): %s \n"
        % (solution.result, ode_parameters, compartment_inf_exists)
    )


def decay(t, y, args):  # scaffolding: stand-in ODE
    return -args["beta"] * y  # scaffolding


y0 = jnp.array([1.0, 0.5])  # scaffolding
print(simulate(decay, 10.0, y0, {"beta": 0.3}, 64).ys[-1])  # works on a single solve


def model(obs):  # scaffolding: stand-in for the InferenceProcess model
    beta = numpyro.sample("beta", dist.LogNormal(0.0, 0.5))  # scaffolding
    sol = simulate(decay, 10.0, y0, {"beta": beta}, 64)  # scaffolding
    numpyro.sample("y", dist.Normal(sol.ys[-1], 0.1), obs=obs)  # scaffolding


try:  # scaffolding
    mcmc = MCMC(NUTS(model), num_warmup=2, num_samples=2, progress_bar=False)  # scaffolding
    mcmc.run(jr.PRNGKey(0), jnp.array([0.05, 0.02]))  # scaffolding
    _report({"jit(diffeqsolve)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
