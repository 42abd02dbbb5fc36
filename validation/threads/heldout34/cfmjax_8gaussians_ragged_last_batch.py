# source: https://github.com/federicobergamin/flow-matching-jax/blob/13f7c441f52cd81348da538e459074cd13a3f325/experiments/flow_matching/gaussian_to_8gaussian_lipman.py
# expect: shape-churn at line 319
# runtime: COMPILES 2 CALLS 16
# why: The torch DataLoader over 4000 points with batch_size 256 (no drop_last) yields a final batch of 160 every epoch, so the jitted value_and_grad of the flow-matching loss is compiled a second time for that shape.

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
import numpy as np
import jax
import jax.numpy as jnp
import jax.flatten_util  # scaffolding: the script relies on jax.flatten_util being imported elsewhere
import flax
import torch
import math
from torch.utils.data import DataLoader
import argparse
from typing import Callable
import flax.linen as nn
import optax


# --- cfm_jax/utils.py ---
def split_key(pnrg_key, num=1):
    new_pnrg_key = jax.random.split(pnrg_key, num=num)
    return new_pnrg_key


# --- cfm_jax/datautils.py ---
def sample_eight_circle_normal_dist(n_points, dimension, scale=1, var=1):
    """
    Taken from https://github.com/atong01/conditional-flow-matching/blob/main/torchcfm/utils.py
    """
    m = torch.distributions.multivariate_normal.MultivariateNormal(
        torch.zeros(dimension), math.sqrt(var) * torch.eye(dimension)
    )
    centers = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1.0 / np.sqrt(2), 1.0 / np.sqrt(2)),
        (1.0 / np.sqrt(2), -1.0 / np.sqrt(2)),
        (-1.0 / np.sqrt(2), 1.0 / np.sqrt(2)),
        (-1.0 / np.sqrt(2), -1.0 / np.sqrt(2)),
    ]
    centers = torch.tensor(centers) * scale
    # centers = centers * scale
    # noise = jax.random.multivariate_normal(key, mean=jnp.zeros(dimension), cov=jnp.sqrt(var)*jnp.eye(dimension), shape=(n_points,))

    noise = m.sample((n_points,))
    multi = torch.multinomial(torch.ones(8), n_points, replacement=True)
    # multi =
    data = []
    for i in range(n_points):
        data.append(centers[multi[i]] + noise[i])
    data = torch.stack(data)
    return data.numpy()


def sample_8gaussians(n_points: int):
    return sample_eight_circle_normal_dist(n_points, 2, scale=5, var=0.1)


def sample_gaussian(n_points, dimension, mean=0, var=1, key=None):
    """
    Get samples from a Gaussian distribution. We can choose the mean and the variance
    """

    if dimension == 1:
        # steandard Gaussian in 1D
        noise = jax.random.normal(key, shape=(n_points,))
        samples = mean * jnp.ones((n_points)) + jnp.sqrt(var) * noise
    else:
        samples = jax.random.multivariate_normal(
            key, mean=mean * np.ones((dimension,)), cov=jnp.sqrt(var) * jnp.eye(dimension), shape=(n_points,)
        )

    return samples


# --- cfm_jax/models/models.py ---
class MLP(nn.Module):
    act_fn: Callable
    output_dim: int
    hidden_dim: int = 64
    num_layers: int = 3

    @nn.compact
    def __call__(self, x, t):
        # here we have to concatenate t
        x = x.reshape((x.shape[0], -1))
        x = jnp.concatenate((x, t), axis=1)
        # here we put the first and the N-1 hidden layers
        for _ in range(self.num_layers - 1):
            x = nn.Dense(self.hidden_dim)(x)
            x = self.act_fn(x)
        # and in the end the output layer
        x = nn.Dense(self.output_dim)(x)

        return x


# --- cfm_jax/losses.py ---
def cfm_loss(apply_fun):
    # compute predictions
    # vt = model.apply({"params": params}, x_t, t)
    def loss(params, x_t, t, ut):
        vt = apply_fun(params, x_t, t)

        # now i can compute the loss
        assert vt.shape == ut.shape, f"Shapes do not match: {vt.shape} and {ut.shape}"
        loss = (vt - ut) ** 2
        return loss.mean()

    return loss


# --- cfm_jax/conditional_flow_matching.py ---
def reshape_t_as_x(t, x):
    """Function to reshape the time vector t by the number of dimensions of x.

    Parameters
    ----------
    x : Tensor, shape (bs, *dim)
        represents the source minibatch
    t : FloatTensor, shape (bs)

    Returns
    -------
    t : Tensor, shape (bs, number of x dimensions)

    Example
    -------
    x: Tensor (bs, C, W, H)
    t: Vector (bs)
    pad_t_like_x(t, x): Tensor (bs, 1, 1, 1)
    """
    if isinstance(t, (float, int)):
        return t
    return t.reshape(-1, *([1] * (len(x.shape) - 1)))


class ConditionalFlowMatchingModel:

    def __init__(self, sigma=0.0, method="CFM", OT_plan_sampler=None) -> None:
        """
        We will implement the following method for now:
        - CFM: original way proposed by Lipman et al.
        - CFMv2: CFM by Tong without the OT coupling (allows different distributions for p(x0))
        - OT-CFM: minibatches OT sampling proposed by Tong et al.
        """
        ## certain methods require a sigma
        self.sigma = sigma
        if method not in ["CFM", "CFMv2", "OT-CFM", "Riem-CFM"]:
            raise NotImplementedError(f"You are passing {method} as method args but this is not implemented yet")

        self.method = method

        if method == "OT-CFM" and OT_plan_sampler is None:
            raise ValueError(
                "You are selecting an OT based flow matching approach but not providing a OT plan sampler"
            )

        self.OT_plan_sampler = OT_plan_sampler

    def compute_mu_t(self, x0=None, x1=None, t=None):

        if self.method == "CFM":
            t = reshape_t_as_x(t, x1)
            return t * x1
        elif self.method in ["OT-CFM", "CFMv2"]:
            t = reshape_t_as_x(t, x0)
            return (1 - t) * x0 + t * x1
        else:
            # we are at the "Riem-CFM"
            raise NotImplementedError("Will be there")

    def compute_sigma_t(self, t=None):
        if self.method == "CFM":
            return 1 - (1 - self.sigma) * t
        else:
            return self.sigma

    def sample_xt(self, x0, x1, t, key_epsilon=None, key_OT_sampler=None, replace=True):
        """
        Method to compute xt
        """

        if self.method == "OT-CFM":
            # psrint("Here")
            # I have to run the OT coupling first
            x0, x1 = self.OT_plan_sampler.sample_plan(x0=x0, x1=x1, key=key_OT_sampler, replace=replace)

        # sampling the mean_t
        mean_t = self.compute_mu_t(x0, x1, t)

        # sampling sigma
        sigma_t = self.compute_sigma_t(t)

        # sampling xt from N(xt|mean_t, sigma**2 I )
        eps = jax.random.normal(key_epsilon, shape=mean_t.shape)
        # print(f"eps: {eps.shape}")
        # here sigma_t is a scalar, so I have to pad it
        sigma_t = reshape_t_as_x(sigma_t, mean_t)
        # print(f"mean_t: {mean_t.shape}")
        # print(f"sigma_t: {sigma_t.shape}")
        xt = mean_t + sigma_t * eps
        # print(f"xt: {xt.shape}")
        if self.method == "OT-CFM":
            return xt, x0, x1
        else:
            return xt

    def compute_conditional_flow(self, x0, x1, t, xt):
        """
        Method to compute ut
        """
        if self.method == "CFM":
            t = reshape_t_as_x(t, x1)
            # sigma = reshape_t_as_x(self.sigma, x1)
            return (x1 - (1 - self.sigma) * xt) / (1 - (1 - self.sigma) * t)
        else:
            return x1 - x0


# --- experiments/flow_matching/gaussian_to_8gaussian_lipman.py ---
def main(args):
    seed = args.seed
    prng_key = jax.random.PRNGKey(seed)

    ## other params passed through the argparse
    n_training_points = args.n_training_points
    epochs = args.epochs
    batch_size = args.batch_size

    # I can create the datasets
    key_p1, prng_key = split_key(prng_key, num=2)

    # p0_samples = sample_8gaussians(n_training_points)
    p1_samples = sample_8gaussians(n_training_points)

    ## create dataloader
    # p0_samples = torch.from_numpy(np.array(p0_samples)).float()
    p1_samples = torch.from_numpy(np.array(p1_samples)).float()

    # I can plot the data
    # plot_data(p0_samples)
    # plot_data(p1_samples)  # scaffolding: plotting cut (no matplotlib)

    # train_loader_p0 = DataLoader(p0_samples, batch_size=batch_size, shuffle=True)
    train_loader_p1 = DataLoader(p1_samples, batch_size=batch_size, shuffle=True)

    model = MLP(act_fn=flax.linen.swish, output_dim=2, hidden_dim=512, num_layers=5)

    # we have to init the model
    key_random_t, key_random_xt, key_model_init, prng_key = split_key(prng_key, num=4)
    random_t = jax.random.normal(key_random_t, shape=(batch_size, 1))
    random_xt = jax.random.normal(key_random_xt, shape=(batch_size, 2))

    params_dict = model.init(key_model_init, random_xt, random_t)
    params_vec, unflatten = jax.flatten_util.ravel_pytree(params_dict)
    n_params = len(params_vec)
    print(f"Number of parameters: {n_params}")

    # we have to init the optimizer
    lr = 0.001
    optim = optax.adam(lr)
    opt_state = optim.init(params_dict["params"])

    # # function to apply the model
    model_apply = lambda p, x, t: model.apply({"params": p}, x, t)

    # loss function definition
    conditional_flow_matching_loss = cfm_loss(model_apply)
    loss_grad_fn = jax.jit(jax.value_and_grad(conditional_flow_matching_loss, argnums=0))

    ## conditional flow matching
    flow_matching_model = ConditionalFlowMatchingModel(sigma=0.0, method=args.method)

    ## simple training loop
    for ep in range(epochs):  # scaffolding: tqdm dropped
        ep_loss = 0
        ep_num_elem = 0
        for batch_p1 in train_loader_p1:

            key_t, key_p0, key_eps, prng_key = split_key(prng_key, num=4)
            t = jax.random.uniform(key_t, shape=(batch_p1.shape[0], 1))

            # right now we have independent couplings
            # for p0 I have to sample from a standard Gaussian distribution
            batch_p0 = sample_gaussian(batch_p1.shape[0], dimension=2, key=key_p0)

            batch_p1 = jnp.array(batch_p1.numpy())
            xt = flow_matching_model.sample_xt(batch_p0, batch_p1, t, key_epsilon=key_eps)
            ut = flow_matching_model.compute_conditional_flow(batch_p0, batch_p1, t, xt)

            ## TODO: don't like this. I will change it
            loss, grad = loss_grad_fn(params_dict["params"], xt, t, ut)
            params_updates, opt_state = optim.update(grad, opt_state)
            params_dict["params"] = optax.apply_updates(params_dict["params"], params_updates)

            ep_loss += loss * batch_p0.shape[0]
            ep_num_elem += batch_p0.shape[0]

        if ep % 50 == 0:
            print(f"finished {ep} epoch, avg loss trainin: {ep_loss/ep_num_elem}")

    ## at the end we cna check if the model learnt something
    key_samples, prng_key = split_key(prng_key, num=2)

    x0_samples = sample_gaussian(5000, dimension=2, key=key_samples)
    t = jnp.zeros((5000, 1))

    # number of discretization steps
    N = 2  # scaffolding: 100 -> 2 (eager sampling loop, not measured)
    xt = x0_samples

    # sampling involves discretizing and solving the ODE
    for i in range(N):
        pred = model_apply(params_dict["params"], xt, t)
        xt = xt + pred * (1 / N)
        t = t + 1 / N

    # plt.scatter(xt[:, 0], xt[:, 1])
    # plt.axis("equal")
    # plt.title(f"Samples from x1")
    # plt.show()
    # plot_data(xt)  # scaffolding: plotting cut (no matplotlib)
    return epochs * len(train_loader_p1)  # scaffolding


torch.manual_seed(0)  # scaffolding
args = argparse.Namespace(seed=1, n_training_points=4000, epochs=1, batch_size=256, method="CFM")  # scaffolding: argparse defaults, epochs 500 -> 1
n_calls = main(args)
_report({"jit(loss)"}, n_calls)  # scaffolding
