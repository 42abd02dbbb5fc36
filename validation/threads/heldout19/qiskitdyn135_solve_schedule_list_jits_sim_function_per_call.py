# source: https://github.com/qiskit-community/qiskit-dynamics/issues/135
# expect: jit-in-loop-or-body at line 147
# runtime: COMPILES 3 CALLS 6
# why: Solver._solve_schedule_list_jax defines sim_function and wraps it in jit inside every solve call, so each repeated solve compiles the same simulation again.
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
# qiskit-community/qiskit-dynamics issue #135: Solver._solve_schedule_list_jax (as at b05194de) builds and jits
# sim_function inside every Solver.solve call, so repeated solve calls compile again
import numpy as np  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding
from scipy.integrate._ivp.ivp import OdeResult  # scaffolding


def Array(x, backend=None, dtype=None):  # scaffolding: qiskit_dynamics.array.Array stand-in
    class _A:
        data = jnp.asarray(x, dtype=dtype)
    return _A()


class DiscreteSignal:  # scaffolding: piecewise-constant signal
    def __init__(self, dt, samples, carrier_freq):
        self.dt, self.samples, self.carrier_freq = dt, samples, carrier_freq


def organize_signals_to_channels(signals, *args):  # scaffolding
    return signals


class _Model:  # scaffolding: a one-qubit HamiltonianModel
    signals = None
    H0 = jnp.array([[1., 0.], [0., -1.]], dtype=complex)
    H1 = jnp.array([[0., 1.], [1., 0.]], dtype=complex)


def solve_lmde(generator, t_span, y0, **kwargs):  # scaffolding: one exponential step per sample
    y = y0
    for sig in generator.signals:
        def body(y, s):
            return jax.scipy.linalg.expm(-1j * sig.dt * (generator.H0 + s * generator.H1)) @ y, None
        y, _ = jax.lax.scan(body, y, sig.samples)
    return OdeResult(t=t_span, y=jnp.stack([y0, y]))


def format_final_states(y, model, y0_input, y0_cls):  # scaffolding
    return y


def validate_and_format_initial_state(y0, model):  # scaffolding
    return y0, y0, None, None


class _Sched:  # scaffolding: a pulse schedule with one drive channel
    def __init__(self, samples):
        self.samples = np.asarray(samples, dtype=complex)
        self.duration = len(samples)


class _Converter:  # scaffolding: InstructionToSignals stand-in
    def get_signals(self, sched):
        return [DiscreteSignal(dt=0.1, samples=sched.samples, carrier_freq=0.0)]


class Solver:
    def __init__(self):  # scaffolding
        self.model = _Model()
        self._all_channels = ["d0"]
        self._channel_carrier_freqs = {"d0": 0.0}
        self._dt = 0.1
        self._hamiltonian_channels = ["d0"]
        self._dissipator_channels = []
        self._schedule_converter = _Converter()

    def _set_new_signals(self, signals):  # scaffolding
        self.model.signals = signals

    def solve(self, t_span_list, y0_list, schedule_list, **kwargs):  # scaffolding: the jax pulse-simulation branch
        return self._solve_schedule_list_jax(t_span_list, y0_list, schedule_list, **kwargs)

    def _solve_schedule_list_jax(
        self,
        t_span_list,
        y0_list,
        schedule_list,
        convert_results: bool = True,
        **kwargs,
    ):
        """Run a list of schedule simulations utilizing JAX compilation."""

        # determine fixed array shape for containing all samples
        max_duration = 0
        for idx, sched in enumerate(schedule_list):
            max_duration = max(sched.duration, max_duration)
        all_samples_shape = (len(self._all_channels), max_duration)

        # define sim function to jit
        def sim_function(t_span, y0, all_samples, y0_input, y0_cls):
            # store signals to ensure purity
            model_sigs = self.model.signals

            # re-construct signals from the samples
            signals = []
            for idx, samples in enumerate(all_samples):
                carrier_freq = self._channel_carrier_freqs[self._all_channels[idx]]
                signals.append(
                    DiscreteSignal(dt=self._dt, samples=samples, carrier_freq=carrier_freq)
                )

            # map signals to correct structure for model
            signals = organize_signals_to_channels(
                signals,
                self._all_channels,
                self.model.__class__,
                self._hamiltonian_channels,
                self._dissipator_channels,
            )

            self._set_new_signals(signals)

            results = solve_lmde(generator=self.model, t_span=t_span, y0=y0, **kwargs)
            results.y = format_final_states(results.y, self.model, y0_input, y0_cls)

            # reset signals to ensure purity
            self.model.signals = model_sigs

            return Array(results.t).data, Array(results.y).data

        jit_sim_function = jit(sim_function, static_argnums=(4,))

        # run simulations
        all_results = []
        for t_span, y0, sched in zip(t_span_list, y0_list, schedule_list):
            # setup initial state
            y0, y0_input, y0_cls, state_type_wrapper = validate_and_format_initial_state(
                y0, self.model
            )

            # setup array of all samples
            all_signals = self._schedule_converter.get_signals(sched)

            all_samples = np.zeros(all_samples_shape, dtype=complex)
            for idx, sig in enumerate(all_signals):
                all_samples[idx, 0 : len(sig.samples)] = np.array(sig.samples)

            results_t, results_y = jit_sim_function(
                Array(t_span).data, Array(y0).data, all_samples, Array(y0_input).data, y0_cls
            )
            results = OdeResult(t=results_t, y=results_y)

            if y0_cls is not None and convert_results:
                results.y = [state_type_wrapper(yi) for yi in results.y]

            all_results.append(results)

        return all_results


solver = Solver()  # scaffolding
y0 = np.array([1., 0.], dtype=complex)  # scaffolding
schedules = [_Sched([0.1] * 20), _Sched([0.2] * 30)]  # scaffolding: two schedules, padded to 30
for _ in range(3):  # scaffolding: the same simulation requested three times
    solver.solve([[0., 3.]] * 2, [y0] * 2, schedules)  # scaffolding
_report({"jit(sim_function)"}, 6)  # scaffolding
