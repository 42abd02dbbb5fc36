# source: https://github.com/tenstorrent/tt-forge-models/pull/271
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR marks train and mutable static for the batch-norm MNIST model; both are hashable (a bool and the tuple ('batch_stats',)), so apply compiles once for two training calls.
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
# tenstorrent/tt-forge-models pull request #271: loaders changed for training; MNIST batch-norm variant with static train and mutable
import enum  # scaffolding
import inspect
import jax
from flax import linen as nn


class MNISTCNNBatchNormModel(nn.Module):
    """MNIST CNN model implementation with batch normalization."""

    @nn.compact
    def __call__(self, x, *, train: bool):
        x = nn.Conv(features=32, kernel_size=(3, 3), padding="SAME")(x)
        x = nn.BatchNorm(use_running_average=not train, epsilon=1e-5)(x)
        x = nn.relu(x)
        x = nn.max_pool(x, window_shape=(2, 2), strides=(2, 2))

        x = nn.Conv(features=64, kernel_size=(3, 3), padding="SAME")(x)
        x = nn.BatchNorm(use_running_average=not train, epsilon=1e-5)(x)
        x = nn.relu(x)
        x = nn.max_pool(x, window_shape=(2, 2), strides=(2, 2))

        x = x.reshape((x.shape[0], -1))

        x = nn.Dense(features=256)(x)
        x = nn.BatchNorm(use_running_average=not train, epsilon=1e-5)(x)
        x = nn.relu(x)

        x = nn.Dense(features=128)(x)
        x = nn.BatchNorm(use_running_average=not train, epsilon=1e-5)(x)
        x = nn.relu(x)

        x = nn.Dense(features=10)(x)
        x = nn.softmax(x)

        return x


class ModelVariant(enum.Enum):  # scaffolding: the loader's variant enum, reduced
    CNN_BATCHNORM = "cnn_batchnorm"
    CNN_DROPOUT = "cnn_dropout"


class ModelLoader:  # scaffolding: the ForgeModel base and the other methods are left out
    def __init__(self, variant=ModelVariant.CNN_BATCHNORM):  # scaffolding
        self._variant = variant

    def load_model(self, dtype_override=None):  # scaffolding: the batch-norm branch
        return MNISTCNNBatchNormModel()

    def get_static_argnames(self):
        static_args = []

        # Check if the model actually has a `train` parameter
        # Only CNN models have it, not the MLP models.
        if self._variant in [ModelVariant.CNN_BATCHNORM, ModelVariant.CNN_DROPOUT]:
            # `train` must be static because the model does boolean operations on it
            # (e.g., use_running_average=not train) which don't work with traced values.
            static_args.append("train")

            # 'mutable' must be static for batch norm models because it contains strings
            # which cannot be traced by JAX
            if self._variant == ModelVariant.CNN_BATCHNORM:
                static_args.append("mutable")

        return static_args

    def get_forward_method_kwargs(self, train=False):
        model = self.load_model()

        # Get the signature of the model's __call__ method.
        try:
            sig = inspect.signature(model.__call__)
            params = sig.parameters
        # Model might not have __call__ defined.
        except (AttributeError, ValueError):
            return {}

        kwargs = {}

        if "train" in params:
            kwargs["train"] = train

        # For Flax models using apply method, add RNG keys for models with dropout
        # We detect dropout by checking the model variant or by inspecting the model
        if self._variant == ModelVariant.CNN_DROPOUT and train:
            # Explicit dropout variant
            kwargs["rngs"] = {"dropout": jax.random.key(1)}

        # For models with batch normalization, make batch_stats mutable during training
        if self._variant == ModelVariant.CNN_BATCHNORM and train:
            kwargs["mutable"] = ("batch_stats",)

        return kwargs


loader = ModelLoader()  # scaffolding: what the test infra does with the loader
model = loader.load_model()  # scaffolding
inputs = jax.random.normal(jax.random.PRNGKey(37), (32, 28, 28, 1))  # scaffolding: load_inputs
params = model.init(jax.random.PRNGKey(0), inputs, train=False)  # scaffolding: load_parameters
forward = jax.jit(model.apply, static_argnames=loader.get_static_argnames())  # scaffolding
for _ in range(2):  # scaffolding
    out, updates = forward(params, inputs, **loader.get_forward_method_kwargs(train=True))
_report({"jit(apply)"}, 2)  # scaffolding
