# source: https://github.com/pmelchior/scarlet2/pull/22
# expect: jit-in-loop-or-body at line 151
# runtime: COMPILES 6 CALLS 12
# why: confidence() calls hallucination_score once per source, and each call wraps two fresh lambdas (closing over that source's morphology) in jit, so every source compiles both HVP functions again: 6 compiles for 3 same-shaped sources instead of 2.

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


# ---- scarlet2/plot.py (hallucination score / confidence metric part) ----
import numpy as np
import jax
import jax.numpy as jnp
import jax.random as random
from jax import jvp, grad, jit

# ------------------------------------------------------ #
# include a routine to calculate the hallucination score #
#  ----------------------------------------------------- #
def cut_square_box(arr, center, size):
    """
    Cut out a square box from a 2D array based on the center and size.

    Parameters:
    arr (numpy.ndarray): The input 2D array.
    center (tuple): The center of the box in the format (row_center, col_center).
    size (int): The size of the square box (side length).

    Returns:
    numpy.ndarray: The square box extracted from the input array.
    """
    #row_center, col_center = center
    col_center, row_center = center
    half_size = size // 2

    # Calculate the indices for slicing
    start_row = row_center - half_size
    end_row = start_row + size
    start_col = col_center - half_size
    end_col = start_col + size

    # Ensure the indices are within the array bounds
    start_row = max(0, start_row)
    end_row = min(arr.shape[0], end_row)
    start_col = max(0, start_col)
    end_col = min(arr.shape[1], end_col)

    # Cut out the square box
    square_box = arr[start_row:end_row, start_col:end_col]
    
    # pad array up if needed (ie box outside array bounds)
    if square_box.shape[0] < size or square_box.shape[1] < size:
        # If the square box is not the correct size, pad it with zeros
        pad_low = size - square_box.shape[0]
        pad_high = size - square_box.shape[1]
        if pad_low < 0:
            pad_low = 0
        if pad_high < 0:
            pad_high = 0
        if len(arr.shape) <= 2:
            square_box = np.pad(square_box, ((pad_low, 0), (pad_high, 0)), 
                            mode="constant", constant_values=0)
        else:
                # Get the original array shape
            original_height, original_width, num_channels = square_box.shape

            # Create a new zero-padded array
            padded_rgb_array = np.zeros((original_height + 2 * pad_high,
                                 original_width + 2 * pad_low,
                                 num_channels), dtype=square_box.dtype)

            # Place the original RGB array in the center of the padded array
            padded_rgb_array[pad_high:pad_high + original_height,
                      pad_low:pad_low + original_width, :] = square_box

    return square_box

@jax.grad
def neural_grad(galaxy, src):
    parameters = src.get_parameters(return_info=True)
    prior = 2 * sum(info["prior"].log_prob(galaxy)
                        for name, (p, info) in parameters.items()
                        if info["prior"] is not None
                        )
    return prior

def log_like(morph, spectrum, data, weights):
    model = morph[None, :, :] * spectrum[:, None, None]
    D = jnp.prod(jnp.asarray(data.shape)) - jnp.sum(weights == 0)
    log_norm = D / 2 * jnp.log(2 * jnp.pi)
    log_like = -jnp.sum(weights * (model - data) ** 2) / 2
    return log_like - log_norm

# --------------------- #
# Hessian approximation #
# --------------------- #
# https://arxiv.org/pdf/2006.00719.pdf

# for regular functions f
#@jax.jit
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]

# for score functions
#@jax.jit
def hvp_grad(grad_f, primals, tangents):
    return jvp(grad_f, primals, tangents)[1]

# diagonals of Hessian from HVPs
#@jax.jit
def hvp_rad(hvp, shape):
    max_iters = 100 # maximum number of iterations
    H = jnp.zeros(shape, dtype=jnp.float32)
    H_ = jnp.zeros(shape, dtype=jnp.float32)
    for i in range(max_iters):
        key = random.PRNGKey(i)
        z = random.rademacher(key, shape , dtype=jnp.float32)
        H += jnp.multiply(z, hvp(z))
        if i > 0:
            norm = jnp.linalg.norm(H/(i+1) - H_/i, ord=2)
            if norm < 1e-6 * jnp.linalg.norm(H/(i+1), ord=2): # gets reasonable results with 1e-2
                break
        H_ = H
    return H/(i+1) 

#TODO: fix the jit compilation errors here
#@jax.jit
def hallucination_score(scene, obs, src_num):
    src = scene.sources[src_num]
    center = np.array(src.morphology.bbox.center)[::-1]
    morph = src.morphology.data
    f = lambda morph: neural_grad(morph, src)
    jit_hvp_x2 = jit(lambda z: hvp_grad(f, (morph,), (z,)))
    hvp_nn = hvp_rad(jit_hvp_x2, morph.shape)
    hvp_nn = np.array(hvp_nn)

    model_scene = scene()
    morph = model_scene[src_num] 
    spectrum = jnp.array((1,))
    data = obs.data
    weights = obs.weights

    # jit the HVP for this loss and this morph model
    f = lambda morph: log_like(morph, spectrum, data, weights)
    jit_hvp_x = jit(lambda z: hvp(f, (morph,), (z,)))
    hvp_ll = hvp_rad(jit_hvp_x, morph.shape)
    
    box_size = hvp_nn.shape[1] 
    # Cut out the square box
    hvp_ll_cut = cut_square_box(hvp_ll, center, box_size)
    hallucination = -hvp_nn + hvp_ll_cut
    
    return -hallucination * src.morphology() , jnp.sum(-hallucination * src.morphology())

def confidence(scene, observation):
    sources = scene.sources
    n_sources = len(sources)
    metrics = np.zeros(n_sources)
    for k, src in enumerate(sources):
        hallucination, metric = hallucination_score(scene, observation, k)
        metrics[k] = metric
    return metrics



# ---- scaffolding: minimal stand-ins for scarlet2 Scene / Source / Observation ----
class _Box:  # scaffolding
    def __init__(self, center): self.center = center  # scaffolding
class _Morphology:  # scaffolding: box-sized morphology with a bbox
    def __init__(self, data, center): self.data, self.bbox = data, _Box(center)  # scaffolding
    def __call__(self): return self.data  # scaffolding
class _GaussianPrior:  # scaffolding: stand-in for the neural (score-based) prior
    def log_prob(self, x): return -0.5 * jnp.sum(x ** 2)  # scaffolding
class _Source:  # scaffolding
    def __init__(self, morphology): self.morphology, self._prior = morphology, _GaussianPrior()  # scaffolding
    def get_parameters(self, return_info=False): return {"morphology": (self.morphology.data, {"prior": self._prior})}  # scaffolding
class _Scene:  # scaffolding: scene() renders every source into the full frame
    def __init__(self, sources, frame): self.sources, self.frame = sources, frame  # scaffolding
    def __call__(self):  # scaffolding
        out = []  # scaffolding
        for s in self.sources:  # scaffolding
            b = s.morphology.data.shape[0]; cy, cx = s.morphology.bbox.center  # scaffolding
            out.append(jnp.zeros(self.frame).at[cy - b // 2:cy - b // 2 + b, cx - b // 2:cx - b // 2 + b].set(s.morphology.data))  # scaffolding
        return jnp.stack(out)  # scaffolding
class _Observation:  # scaffolding
    def __init__(self, data, weights): self.data, self.weights = data, weights  # scaffolding


rng = np.random.RandomState(0)  # scaffolding
frame = (32, 32)  # scaffolding
sources = [_Source(_Morphology(jnp.asarray(rng.rand(11, 11), dtype=jnp.float32), c)) for c in [(8, 8), (16, 20), (24, 10)]]  # scaffolding: three sources, same box size
scene = _Scene(sources, frame)  # scaffolding
obs = _Observation(jnp.asarray(rng.rand(1, *frame), dtype=jnp.float32), jnp.ones((1, *frame), dtype=jnp.float32))  # scaffolding
metrics = confidence(scene, obs)
_report({"jit(<lambda>)"}, 12)  # scaffolding: 2 jitted HVP lambdas per source x 3 sources, each called twice by hvp_rad (it converges at i=1)
