# source: https://github.com/scikit-hep/pyhf/pull/2580
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR's tolist returns the tracer's aval while jitting, so the short data raises the intended InvalidPdfData, and three well-formed calls compile logpdf once.
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


import logging

from jax import config

config.update("jax_enable_x64", True)

import jax  # scaffolding
import jax.numpy as jnp

log = logging.getLogger(__name__)
logging.disable(logging.CRITICAL)  # scaffolding: keep the logged traceback off the output


class exceptions:  # scaffolding: pyhf.exceptions
    class InvalidPdfParameters(Exception):  # scaffolding
        pass

    class InvalidPdfData(Exception):  # scaffolding
        pass


from jax.core import Tracer


def _currently_jitting():
    """
    JAX turns arrays into Tracers during jit-compilation, so check for that.
    """
    return isinstance(jnp.array(1), Tracer)


class jax_backend:  # pyhf.tensor.jax_backend, cut to the methods logpdf uses
    dtypemap = {"float": jnp.float64, "int": jnp.int64, "bool": jnp.bool_}  # scaffolding

    def tolist(self, tensor_in):
        if _currently_jitting():
            # .aval is the abstract value and has a little nicer representation
            return tensor_in.aval
        try:
            return jnp.asarray(tensor_in).tolist()
        except (TypeError, ValueError):
            if isinstance(tensor_in, list):
                return tensor_in
            raise

    def astensor(self, tensor_in, dtype="float"):
        # TODO: Remove doctest:+ELLIPSIS when JAX API stabilized
        try:
            dtype = self.dtypemap[dtype]
        except KeyError:
            log.error(
                'Invalid dtype: dtype must be float, int, or bool.', exc_info=True
            )
            raise

        return jnp.asarray(tensor_in, dtype=dtype)

    def reshape(self, tensor, newshape):  # scaffolding
        return jnp.reshape(tensor, newshape)  # scaffolding


def get_backend():  # scaffolding: pyhf.get_backend
    return jax_backend(), None  # scaffolding


class _Config:  # scaffolding: one-bin uncorrelated_background([10], [15], [5]) model config
    npars = 2  # scaffolding
    nmaindata = 1  # scaffolding
    nauxdata = 1  # scaffolding
    auxdata = [9.0]  # scaffolding


class _Pdf:  # scaffolding
    def __init__(self, rates):  # scaffolding
        self.rates = rates  # scaffolding

    def log_prob(self, data):  # scaffolding
        return jnp.sum(data * jnp.log(self.rates) - self.rates)  # scaffolding


class Model:  # pyhf.pdf.Model, cut to logpdf
    config = _Config()  # scaffolding
    nominal_rates = jnp.array([[[25.0]]])  # scaffolding
    batch_size = None  # scaffolding

    def make_pdf(self, pars):  # scaffolding
        return _Pdf(jnp.array([25.0 * pars[0], 9.0 * pars[1]]))  # scaffolding


    def logpdf(self, pars, data):
        """
        Compute the log value of the full density.

        Args:
            pars (:obj:`tensor`): The parameter values
            data (:obj:`tensor`): The measurement data

        Returns:
            Tensor: The log density value

        """
        try:
            tensorlib, _ = get_backend()
            pars, data = tensorlib.astensor(pars), tensorlib.astensor(data)
            # Verify parameter and data shapes
            if pars.shape[-1] != self.config.npars:
                raise exceptions.InvalidPdfParameters(
                    f'eval failed as pars has len {pars.shape[-1]} but {self.config.npars} was expected'
                )

            if data.shape[-1] != self.nominal_rates.shape[-1] + len(
                self.config.auxdata
            ):
                raise exceptions.InvalidPdfData(
                    f'eval failed as data has len {data.shape[-1]} but {self.config.nmaindata + self.config.nauxdata} was expected'
                )

            result = self.make_pdf(pars).log_prob(data)

            if (
                not self.batch_size
            ):  # force to be not scalar, should we changed with #522
                return tensorlib.reshape(result, (1,))
            return result
        except Exception:
            log.error(
                f"Eval failed for data {tensorlib.tolist(data)} pars: {tensorlib.tolist(pars)}",
                exc_info=True,
            )
            raise


model = Model()  # scaffolding
logpdf = jax.jit(model.logpdf)  # scaffolding: the fit jits the objective built on model.logpdf
try:  # scaffolding
    logpdf(jnp.array([1.0, 1.0]), jnp.array([12.5]))  # scaffolding: data without the auxdata (len 1, 2 expected)
except exceptions.InvalidPdfData:  # scaffolding: the PR's test expects this error
    pass  # scaffolding
for k in range(3):  # scaffolding
    logpdf(jnp.array([1.0, 1.0 + 0.1 * k]), jnp.array([12.5, 9.0]))  # scaffolding
_report({"jit(logpdf)"}, 3)  # scaffolding
