# source: https://github.com/mdd423/wobble_jax/commit/d03a876f388a4d8ca04861aa8ad1d62e69bcbbc0
# expect: bad-static-spec at line 1411
# runtime: ERROR ValueError
# why: cardinal_vmap_model(x, xp, ap, basis, a) has five parameters but is jitted with static_argnums=[3, 4, 5]; jax checks the indices against the signature when the decorator is applied, so importing jabble.model raises ValueError.
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



import sys  # scaffolding
import types  # scaffolding
jabble = types.SimpleNamespace()  # scaffolding: every jabble module is inlined into this one file
jabble.cardinalspline = jabble.physics = jabble.loss = jabble.dataset = jabble.model = sys.modules[__name__]  # scaffolding
sys.excepthook = lambda t, e, tb: print(f"ERROR {t.__name__}")  # scaffolding: reports an exception raised at module level (the jit below is applied at import)

# ===== jabble/cardinalspline.py (wobble_jax @ c6c1f95) =====
import numpy as np
import math
import jax.numpy as jnp


def _alpha_recursion(j, k, n):
    if k == 0:
        if j < n - 1:
            return 0.0
        else:
            return 1.0

    return _alpha_recursion(j, k - 1, n) + (
        (-1) ** (n + k - j - 1)
        * math.comb(n, k)
        * math.comb(n - 1, j)
        * k ** (n - j - 1)
    )


class CardinalSplineKernel:
    """
    Creates Irwin-Hall function for cardinal basis.

    Parameters
    ----------
    n : `int`
        order of the basis function.

    Atttributes
    -----------
    alphas : `np.ndarray`
        piecewise polynomial coefficients matrix (n+1,n+1)
    """

    def __init__(self, n):
        self.n = n
        self.alphas = np.zeros((n + 1, n + 1))
        for j in range(n + 1):
            for k in range(n + 1):
                self.alphas[j, k] = _alpha_recursion(j, k, n + 1)
        self.alphas = jnp.array(self.alphas)

    def __call__(self, x, *args):
        ks = jnp.floor(x + ((self.n + 1) / 2)).astype(int)
        cond1 = ks >= 0
        cond2 = ks <= (self.n)

        f = jnp.where(
            (cond1 * cond2),
            jnp.polyval(self.alphas[::-1, ks], x + ((self.n + 1) / 2)),
            0.0,
        )

        return f

# ===== jabble/physics.py (wobble_jax @ c6c1f95) =====
# import astropy.table as at  # scaffolding: not installed; only used by save/load and get_star_velocity, not called
# import astropy.units as u  # scaffolding: not installed; only used by save/load and get_star_velocity, not called
# import astropy.coordinates as coord  # scaffolding: not installed; only used by save/load and get_star_velocity, not called
# import astropy.constants as const  # scaffolding: not installed; only used by save/load and get_star_velocity, not called
# import astropy.time as atime  # scaffolding: not installed; only used by save/load and get_star_velocity, not called

import numpy as np
import jax.numpy as jnp
import jax

import scipy.constants


def get_verr(shifts, f_info):
    dvddx = jnp.array([jax.grad(velocities)(x) for x in shifts])
    verr = np.sqrt(1 / f_info) * dvddx
    return verr


def velocities(shifts):
    expon = jnp.exp(2 * shifts)
    vel = scipy.constants.c * (expon - 1) / (1 + expon)
    return vel


def delta_x(R):
    return jnp.log(1 + 1 / R)


def shifts(vel):
    return jnp.log(
        jnp.sqrt((1 + vel / (scipy.constants.c)) / (1 - vel / (scipy.constants.c)))
    )


def get_star_velocity(BJD, star_name, observatory_name, parse=False):
    star = coord.SkyCoord.from_name(star_name, parse=parse)
    loc = coord.EarthLocation.of_site(observatory_name)
    ts = atime.Time(BJD, format="jd", scale="tdb")
    bc = star.radial_velocity_correction(obstime=ts, location=loc).to(u.km / u.s)
    return bc

# ===== jabble/loss.py (wobble_jax @ c6c1f95) =====
# import jabble.model as wobble_model
import numpy as np
import jax.numpy as jnp
import jax


def dict_slice(dictionary, slice_i, slice_j, device):
    out = {}
    for key in dictionary:
        out[key] = jax.device_put(dictionary[key][slice_i:slice_j], device)
    return out


def dict_ele(dictionary, slice_i, device):
    out = {}
    for key in dictionary:
        out[key] = jax.device_put(dictionary[key][slice_i], device)
    return out


class LossFunc:
    """
    Loss or Objective function class for fitting jabble.models
    """

    def __init__(self, coefficient=1.0):
        self.coefficient = coefficient

    def __add__(self, x):

        return LossSequential(loss_funcs=[self, x])

    def __mul__(self, x):
        self.coefficient *= x
        return self

    def __rmul__(self, x):
        self.coefficient *= x
        return self

    def loss_all(self, p, datablock, metablock, model, device_op, batch_size, *args):
        """
        Loops through all epochs in dataset. And adds each value to objective.

        Parameters
        ----------
        p : `jnp.array`
            Parameters of the model being fit.
        data : `jabble.Dataset`

        model : `jabble.Model`
            Model being fit.
        """
        # blockify parameters
        # what if normalization model has different number of parameters per model
        # anything that is going to take the epoch index needs to blockified and be the only parameter
        # this is an issue with the normalization model because its epoch specific but the parameters vary by epoch
        # just putting in the zero below will assume the same number of parameters as the first one
        # not the one specified, whats the better way to do multiple epoch fitting without indices

        def _internal(datarow, metarow):
            return self(p, datarow, metarow, model, *args).sum()

        rounds = int(np.ceil(metablock["index"].max() / batch_size))
        out = 0.0

        for iii in range(rounds):
            top = np.min([(iii + 1) * batch_size, datablock["xs"].shape[0]])

            temp = jax.vmap(_internal, in_axes=(0, 0), out_axes=0)(
                dict_slice(datablock,(iii * batch_size),top,device_op),
                dict_slice(metablock,(iii * batch_size),top,device_op)
            )
            out += temp.sum()
        return out

    def ready_indices(self, model):

        pass

    def __repr__(self) -> str:

        return (
            str(self.coefficient) + " {obj.__class__.__name__}".format(obj=self) + "()"
        )


class LossSequential(LossFunc):
    def __init__(self, loss_funcs):
        # super().__init__(self)
        self.loss_funcs = loss_funcs

    def __call__(self, p, data, meta, model, *args):
        output = 0.0
        for loss in self.loss_funcs:
            output += loss(p, data, meta, model, *args).sum()
        return output

    def __add__(self, x: LossFunc):
        if isinstance(x, LossSequential):
            out = LossSequential(loss_funcs=[*self.loss_funcs, *x])
        else:
            out = LossSequential(loss_funcs=[*self.loss_funcs, x])
        return out

    def __radd__(self, x: LossFunc):
        if isinstance(x, LossSequential):
            out = LossSequential(loss_funcs=[*self.loss_funcs, *x])
        else:
            out = LossSequential(loss_funcs=[*self.loss_funcs, x])
        return out

    def __mul__(self, x: float | np.double):
        for loss in self.loss_funcs:
            loss.coefficient *= x
        return self

    def __rmul__(self, x: float | np.double):
        for loss in self.loss_funcs:
            loss.coefficient *= x
        return self

    def ready_indices(self, model):

        for loss in self.loss_funcs:
            loss.ready_indices(model)
            # loss.indices = get_submodel_indices(model,*loss.submodel_inds)

    def __repr__(self) -> str:
        out = self.loss_funcs[0].__repr__()
        for loss in self.loss_funcs[1:]:
            out += " + " + loss.__repr__()
        return out


# always multiply by coefficient so that when you do mutliplication with the
# object then it translates to the output


class ChiSquare(LossFunc):
    def __call__(self, p, datarow, metarow, model, *args):

        return self.coefficient * jnp.where(
            ~datarow["mask"],
            datarow["yivar"]
            * (((datarow["ys"] - model(p, datarow["xs"], metarow, *args)) ** 2)),
            0.0,
        )


def get_submodel_indices(self, i, j=None, *args):
    # this recurses through submodels when given a set of indices to that submodel
    # then returns of a bool array of the length of the total number of parameters
    # of whole model
    # with 1's at the parameters of the specific submodel, 0's elsewhere
    s_temp = self.get_indices(i)
    if j is None:
        return s_temp

    s_inds = jnp.zeros(self.get_parameters().shape, dtype=bool)
    temp = get_submodel_indices(self[i], j, *args)
    s_inds = s_inds.at[s_temp].set(temp)
    return s_inds


class L2Reg(LossFunc):
    def __init__(self, submodel_inds=True, coefficient=1.0, constant=0.0):
        super(L2Reg, self).__init__(coefficient)
        self.constant = constant
        self.submodel_inds = submodel_inds
        # self.indices       = get_submodel_indices(model,*self.submodel_inds)

    def ready_indices(self, model):
        self.indices = get_submodel_indices(model, *self.submodel_inds)

    def __call__(self, p, datarow, model, *args):
        err = self.coefficient * 0.5 * ((p[self.indices] - self.constant) ** 2)
        return err

    def __repr__(self) -> str:

        return (
            str(self.coefficient)
            + " {obj.__class__.__name__}".format(obj=self)
            + "({obj.submodel_inds})".format(obj=self)
        )

# ===== jabble/dataset.py (wobble_jax @ c6c1f95) =====
from dataclasses import dataclass

# Third Party
import numpy as np
import numpy.polynomial as polynomial

import scipy.ndimage

import jax.numpy as jnp
import jax


# important for grid search
def get_parabolic_min(loss_array, grid, return_all=False):

    epoches = loss_array.shape[0]
    grid_min = np.empty(epoches)

    xss = np.empty((epoches, 3))
    yss = np.empty((epoches, 3))
    polys = []

    for n in range(epoches):
        idx = loss_array[n, :].argmin()
        print("epch {}: min {}".format(n, idx))
        if idx == 0:
            print("minimum likely out of range")
            idx = 1
        if idx == grid.shape[1] - 1:
            print("minimum likely out of range")
            idx -= 1
        # else:

        xs = grid[n, idx - 1 : idx + 2]
        xss[n, :] = xs
        ys = loss_array[n, idx - 1 : idx + 2]
        yss[n, :] = ys

        poly = np.polyfit(xs, ys, deg=2)
        polys.append(poly)
        deriv = np.polyder(poly)

        x_min = np.roots(deriv)
        x_min = x_min[x_min.imag == 0].real
        y_min = np.polyval(poly, x_min)

        grid_min[n] = x_min

    if return_all:
        return grid_min, xss, yss, polys
    else:
        return grid_min


@dataclass
class Data:
    """Temporary Data Type"""

    def __init__(self, frames, *args):
        self.dataframes = frames
        self.metadata = {}
        self.metakeys = {}

    def __getitem__(self, i):
        return self.dataframes[i]

    @property
    def yerr(self):
        return 1 / np.sqrt(self.yivar)

    @property
    def xs(self):
        return [dataframe.xs for dataframe in self.dataframes]

    @property
    def ys(self):
        return [dataframe.ys for dataframe in self.dataframes]

    @property
    def yivar(self):
        return [dataframe.yivar for dataframe in self.dataframes]

    @property
    def mask(self):
        return [dataframe.mask for dataframe in self.dataframes]

    def __len__(self):
        return len(self.dataframes)

    def from_lists(xs, ys, yivar, ma):
        frames = []
        for iii in range(len(xs)):
            frames.append(DataFrame(xs[iii], ys[iii], yivar[iii], ma[iii]))
        return Data(frames)

    def to_device(self, device):
        for dataframe in self.dataframes:
            dataframe.to_device(device)

    def blockify(data, device=None, return_keys=False):
        if device is None:
            device = data[0].xs.device()
        max_ind = np.max([len(dataframe.xs) for dataframe in data])
        xs = np.zeros((len(data), max_ind))
        ys = np.zeros((len(data), max_ind))
        yivar = np.zeros((len(data), max_ind))
        mask = np.ones((len(data), max_ind))

        for i, dataframe in enumerate(data):
            frame_size = len(dataframe.xs)
            xs[i, :frame_size] = dataframe.xs
            ys[i, :frame_size] = dataframe.ys
            yivar[i, :frame_size] = dataframe.yivar
            mask[i, :frame_size] = dataframe.mask

        xs = jax.device_put(jnp.array(xs), device)
        ys = jax.device_put(jnp.array(ys), device)
        yivar = jax.device_put(jnp.array(yivar), device)
        mask = jax.device_put(jnp.array(mask, dtype=bool), device)

        datablock = {}
        datablock["xs"] = xs
        datablock["ys"] = ys
        datablock["yivar"] = yivar
        datablock["mask"] = mask

        # datablock = np.array([*zip(xs,ys,yivar,mask)],\
        #                      dtype=[("xs",np.double,(xs.shape[1])),("ys",np.double,(xs.shape[1])),\
        #                             ("yivar",np.double,(xs.shape[1])),("mask",np.double,(xs.shape[1]))])
        # rv_array = np.array([*zip(comb_rv,comb_err,comb_time)],dtype=[("RV_comb",np.double),("RV_err_comb",np.double),("Time_comb",np.double)])
    
        ###########################################################

        meta_keys = {}

        # meta_dtype = [("index",int)]
        index_span = jnp.arange(0, len(data), dtype=int)
        metablock = {"index": index_span}
        for key in data.metadata:
            if key in data.metakeys:
                epoch_indices = np.zeros(index_span.shape)
                for i, ele in enumerate(data.metakeys[key]):
                    epoch_indices[data.metadata[key] == ele] = i
                epoch_uniques = data.metakeys[key]
            else:
                epoch_uniques, epoch_indices = np.unique(
                    data.metadata[key], return_inverse=True
                )
            # meta_dtype.append((key,epoch_indices.dtype))
            # mdata.append(jnp.array(epoch_indices))
            # metablock[key] = jax.device_put(jnp.array(epoch_indices), device)
            meta_keys[key] = epoch_uniques
            metablock[key] = epoch_indices.astype(int)

        # metablock = np.array([*zip(*mdata)],dtype=meta_dtype)

        if return_keys:
            return datablock, metablock, meta_keys
        return datablock, metablock


class DataFrame:
    def __init__(self, xs: jnp.array, ys: jnp.array, yivar: jnp.array, mask: jnp.array):
        self.xs = jnp.array(xs)
        self.ys = jnp.array(ys)
        self.yivar = jnp.array(yivar)
        self.mask = jnp.array(mask)

    def to_device(self, device):
        self.xs = jax.device_put(jnp.array(self.xs), device)
        self.ys = jax.device_put(jnp.array(self.ys), device)
        self.yivar = jax.device_put(jnp.array(self.yivar), device)
        self.mask = jax.device_put(jnp.array(self.mask), device)

# ===== jabble/model.py (wobble_jax @ c6c1f95) =====
import numpy as np
import math
import jax
import jax.numpy as jnp
import jax.experimental.sparse

# import jaxopt

import scipy.optimize
import scipy.signal as signal
import scipy.constants
import sys
from functools import partial
from jax import jit
# import h5py  # scaffolding: not installed; only used by save/load and get_star_velocity, not called

import copy

# import astropy.constants as const  # scaffolding: not installed; only used by save/load and get_star_velocity, not called
import logging

import pickle  # 5 as pickle
# import jabble.dataset  # scaffolding: module inlined in this file
# import jabble.physics  # scaffolding: module inlined in this file


def save(filename, model):
    with open(filename, "wb") as output:  # Overwrites any existing file.
        pickle.dump(model, output, pickle.HIGHEST_PROTOCOL)


def load(filename):
    with open(filename, "rb") as input:  # Overwrites any existing file.
        model = pickle.load(input)
        return model


def create_x_grid(xs, vel_padding, resolution):
    """
    Get grid in log wavelength space with equally spaced steps at speed of light over the resolution,
    padded by velocity padding on each side

    Parameters
    ----------
    xs : `np.ndarray`
        the log wavelength grid or grids of the datasets to be modeled
    vel_padding: `float`
        velocity padding on either side of the min and max of the above xs grid in m/s
    resolution: `float`
        instrument resolution that sets grid spacing

    Returns
    -------
    sp : `nd.array`
        Evenly spaced numpy.ndarray
    """

    x_min = xs.min()
    x_max = xs.max()
    step = jabble.physics.shifts(scipy.constants.c / resolution)
    x_padding = jabble.physics.shifts(vel_padding)
    model_grid = np.arange(x_min - x_padding, x_max + x_padding, step)
    return model_grid


class Model:
    """
    Base Model class with scipy optimizer using jax.

    Attributes
    ----------
    results : `list`
       List of results objects produced each call to optimize
    """

    def __init__(self, *args, **kwargs):
        self._fit = False
        self.func_evals = []
        self.history = []
        self.save_history = False

        self.loss_history = []
        self.save_loss = []

        self.results = np.empty(shape=(0),dtype=[('task', 'U64'), ('nit', int), ('funcalls',int),('warnflag',int),\
                                                ('value',np.double),('loss','U64')])

        self.metadata = {}

    def __call__(self, p, *args):
        """
        Call wrapper function. Checks if there are incoming parameters, if not uses fixed parameters.
        Then sends to self.call.

        Parameters
        ----------
        p : `(jnp.ndarray, [])`
            parameters of model, or empty list if using fixed parameters


        Returns
        ----------
        self.call : `jnp.ndarray`
            Returns array from call.
        """
        if len(p) == 0:
            assert self._fit == False
            return self.call(self.p, *args)
        else:
            assert self._fit == True
            return self.call(p, *args)

    def gaussnewton(self, data, *args):
        """
        maybe defunct optimizer using residuals to fit parameters using jaxopt.GaussNewton.
        Fits using y residuals times y information

        Parameters
        ----------
        data : `jabble.Dataset`
            jabble.Dataset, that is handed to the Loss function during optimization

        Returns
        ----------
        gn_sol : `OptStep`
            JaxOpt.OptStep object with results from optimization loop
        """

        def chi_1(p):
            residual = jnp.zeros(data.xs.shape)
            for i in range(data.xs.shape[0]):

                residual = residual.at[i, :].set(
                    (data.ys[i, :] - self(p, data.xs[i, :], i)) * data.yivar[i, :]
                )
            return residual

        gn = jax.GaussNewton(residual_fun=chi_1)
        gn_sol = gn.run(self.get_parameters())

        self.results.append(gn_sol)
        self._unpack(gn_sol.params)
        return gn_sol

    def optimize(self, loss, data, device_store, device_op, batch_size, options={}):
        """
        Choosen optimizer for jabble is scipy.fmin_l_bfgs_b.
        optimizes all parameters in fit mode with respect to the loss function using jabble.Dataset

        Parameters
        ----------
        loss : `jabble.Loss`
            jabble.loss object,
        data : `jabble.Dataset`
            jabble.Dataset, that is handed to the Loss function during optimization
        verbose : `bool`
            if true prints, loss, grad dot grad at every function
        save_history : `bool`
            if true, saves values of parameters at every function call
        save_loss : `bool`
            if true, saves loss array every function call of optimization
        options :
            additional keyword options to be passed to scipy.fmin_l_bfgs_b


        Returns
        ----------
        d : `dict`
            Results from scipy.fmin_l_bgs_b call
        """

        func_grad = jax.value_and_grad(loss.loss_all, argnums=0)

        def val_gradient_function(p, *args):
            val, grad = func_grad(p, *args)

            return np.array(val, dtype="f8"), np.array(grad, dtype="f8")

        # blockify dataset
        datablock, metablock = data.blockify(device_store)

        ##########################################################
        loss.ready_indices(self)
        x, f, d = scipy.optimize.fmin_l_bfgs_b(
            val_gradient_function,
            self.get_parameters(),
            None,
            (datablock, metablock, self, device_op, batch_size),
            **options,
        )

        self.results = np.append(self.results, np.array([(d['task'],d['nit'],d['funcalls'],d['warnflag'],f,repr(loss)),],\
                                                        dtype=[('task', 'U64'), ('nit', int), ('funcalls',int),('warnflag',int),('value',np.double),('loss','U64')]), axis=0) #{'task': d['task'], 'nit':d['nit'], 'funcalls':d['funcalls'],'warnflag':d['warnflag'],\'value':f,'loss':repr(loss)}
        # self.results.append({"out": d, "value": f, "loss": repr(loss)})
        self._unpack(jax.device_put(jnp.array(x), device_op))
        return d

    def __add__(self, x):
        if isinstance(x, AdditiveModel):
            return AdditiveModel(models=[self, *x.models])
        return AdditiveModel(models=[self, x])

    def __radd__(self, x):
        return AdditiveModel(models=[self, x])

    def composite(self, x):
        return CompositeModel(models=[self, x])

    def evaluate(self, x, i):
        self.fit()
        return self(self.p, x, i)

    def fix(self):
        """
        Sets model into fixed mode. None of the parameters will be varied at optimization call.
        """
        self._fit = False

    def fit(self):
        """
        Sets model into fitting model. All parameters will be varied during next optimization call.
        """
        self._fit = True

    def to_device(self, device):
        """
        Move all parameters to given device
        """
        self.p = jax.device_put(self.p, device)

    def get_parameters(self):
        """
        Gets parameters from the model that are in fitting mode.

        Returns
        ----------
        parameters : `jnp.ndarray`
            Returns jax array of all parameters that are to be fit.
        """
        if self._fit:
            return jnp.array(self.p)
        else:
            return jnp.array([])

    def _unpack(self, p):
        if len(p) != 0:
            self.p = p

    def display(self, string=""):
        """
        Prints model and submodels if self is ContainerModel, and the number of parameters in fit mode.
        """
        out = string + "-" + self.__class__.__name__ + "-"
        out += "-----------------------------------"
        params = str(len(self.get_parameters()))
        while len(out + params) % 17 != 0:
            # print(len())
            out += "-"

        out += params
        print(out)

    def copy(self):
        return copy.deepcopy(self)

    def save(self,filename: str, mode: str) -> None:
        
        if mode == "hdf":
            with h5py.File(filename + "." + mode,'w') as file:
                self.save_hdf(file)
        elif mode == "pkl":
            with open(filename + "." + mode, "wb") as output:  # Overwrites any existing file.
                pickle.dump(self, output, pickle.HIGHEST_PROTOCOL)

    def save_hdf(self,file,index=[]):
        ind_str = ""
        for x in index:
            ind_str += '[{}]'.format(x)
        # print(ind_str + self.__class__.__name__)
        group = file.create_group(ind_str + self.__class__.__name__)
        # for key in self.__dict__:
        #     if key[0] != "_":
                # print(key)
        if len(self.results) > 0:
            res_group = file.create_group('results')
            for item in self.results.dtype.names:
                if self.results[item].dtype == '<U64':
                    res_group.attrs[item] = np.array(self.results[item], dtype=h5py.string_dtype(encoding='utf-8'))
                else:
                    res_group.create_dataset(item,data=self.results[item])
        if len(self.metadata) > 0:
            meta_group = file.create_group('metadata')
            for key in self.metadata.keys():
                meta_group.create_dataset(key,data=self.metadata[key])
        try:
            group.create_dataset("p",data=self.p)
        except AttributeError:
            pass
        # for key in self.__dict__:
        #     if key != "models":
        #         print(key)
        #         if self.__dict__[key]:
                    
        #             group.create_dataset(key, data=self.__dict__[key])
        return group
    
    def load_hdf(cls,group):

        return cls(p=group["p"])


class ContainerModel(Model):
    """
    ContainerModel class that can contain submodels each with individual parameters.

    Attributes
    ----------
    models : `list`
       List of jabble.Model objects
    parameters_per_model : `np.ndarray`
        Array with shape len(models), ith value of array is the number of parameters being fit in the ith model.
    """

    def __init__(self, models, *args, **kwargs):
        super(ContainerModel, self).__init__()
        self.models = models
        self._parameters_per_model = jnp.empty((len(models)), dtype=int)
        self.size = len(models)
        for i in range(self.size):
            self._parameters_per_model = self._parameters_per_model.at[i].set(
                len(self.models[i].get_parameters())
            )
        self.create_param_bool()

    def append(self, model):
        """
        Directing append self.models list with another model and update parameters_per_model attr

        Attributes
        ----------
        model : `jabble.Model`
            Model to be added to the list of models
        """
        self.models.append(model)
        self._parameters_per_model = jnp.concatenate(
            (self._parameters_per_model, len(model.get_parameters()))
        )
        self.create_param_bool()

    def __call__(self, p, *args):

        if len(p) == 0:
            return self.call(jnp.array([]), *args)
        else:
            return self.call(p, *args)

    def __getitem__(self, i):
        """
        Indexing, i, ContainerModel returns ith model in models list.
        """
        return self.models[i]

    def _unpack(self, p):
        """
        After optimization, fit parameters are handed back to the static Model attr.
        """
        for k, model in enumerate(self.models):
            indices = self.get_indices(k)
            model._unpack(p[indices])

    def get_parameters(self):
        """
        Return all parameters in fit mode from all submodels.

        Returns
        -------
        p : `jnp.ndarray`
            1-D jax array concatenated all submodels paraemeters that are in fit mode
        """
        x = jnp.array([])
        for i in range(self.size):
            params = self.models[i].get_parameters()
            self._parameters_per_model = self._parameters_per_model.at[i].set(
                params.shape[0]
            )
            x = jnp.concatenate((x, params))
        self.create_param_bool()
        return x

    def create_param_bool(self):
        self._param_bool = np.zeros((self.size, int(np.sum(self._parameters_per_model))))
        for i in range(self.size):
            self._param_bool[
                i,
                int(jnp.sum(self._parameters_per_model[:i])) : int(
                    jnp.sum(self._parameters_per_model[: i + 1])
                ),
            ] = jnp.ones(
                (
                    int(jnp.sum(self._parameters_per_model[: i + 1]))
                    - int(jnp.sum(self._parameters_per_model[:i]))
                ),
                dtype=bool,
            )
        self._param_bool = jnp.array(self._param_bool, dtype=bool)

    def fit(self, i=None, *args):
        """
        Set a submodel in fit mode, or all submodels to fit mode if no i is given.

        Parameters
        ----------
        i : `int`
            index of the submodel in models list to fit, if left as None all submodels will be set to fitting mode.
        """
        if i is None:
            for j in range(self.size):
                self.models[j].fit()
                self._parameters_per_model = self._parameters_per_model.at[j].set(
                    self.models[j].get_parameters().shape[0]
                )
        else:
            self[i].fit(*args)
            self._parameters_per_model = self._parameters_per_model.at[i].set(
                self[i].get_parameters().shape[0]
            )
        self.create_param_bool()

    def fix(self, i=None, *args):
        """
        Set a submodel in fixed mode, or all submodels to fixed mode if no i is given.

        Parameters
        ----------
        i : `int`
            index of the submodel in models list to fix, if left as None all submodels will be set to fixed mode.
        """
        if i is None:
            for j, model in enumerate(self.models):
                model.fix()
                self._parameters_per_model = self._parameters_per_model.at[j].set(0)
        else:
            self[i].fix(*args)
            self._parameters_per_model = self._parameters_per_model.at[i].set(0)
        self.create_param_bool()

    def to_device(self, device):
        """
        Move all parameters of all submodels to given device
        """
        for model in self.models:
            model.to_device(device)

    def display(self, string=""):
        self.get_parameters()
        super(ContainerModel, self).display(string)
        for i, model in enumerate(self.models):
            # print(model)
            tab = "  {}".format(i)
            string += tab
            model.display(string)
            string = string[: -len(tab)]

    def split_p(self, p):
        p_list = [p[self.get_indices(k)] for k in range(len(self._parameters_per_model))]

        return p_list

    def copy(self):
        return self.__class__(models=copy.deepcopy(self.models))

    def save_history(self, p):
        for i, model in enumerate(self.models):
            model.save_history(p[self.get_indices(i)])

    def get_indices(self, i):
        """
        Get array of ints for the ith submodel, in models list using parameters_per_model
        Returns
        -------
        indices : 'np.ndarray(int)`
            Array of indices for the parameters in the ith model that is in fitting mode
        """
        return self._param_bool[i]

    def save_hdf(self,file,index=[]):
        
        # group = file.create_group(self.__class__.__name__)
        group = super().save_hdf(file,index)
        for i,model in enumerate(self.models):
            model.save_hdf(group,index=index+[i])
        return group
    
    def load_hdf(cls,group):
        model_list = []
        for key in group.keys():
            cls_sub = eval(key.split(']')[-1])
            # print(group[key].keys())
            model_list.append(cls_sub.load_hdf(cls_sub,group[key]))
        return cls(model_list)


class CompositeModel(ContainerModel):
    """
    ContainerModel sequentially applies models to input.
    .. math::
        f  = g_n(g_{n-1}(...g_1(g_0(x))))
    """

    def call(self, p, x, i, *args):
        for k, model in enumerate(self.models):
            indices = self.get_indices(k)
            x = model(p[indices], x, i, *args)
        return x

    def composite(self, x):
        if isinstance(x, CompositeModel):
            return CompositeModel(models=[*self.models, *x.models])
        else:
            return CompositeModel(models=[*self.models, x])


class AdditiveModel(ContainerModel):
    """
    ContainerModel applies all models to input then adds results.
    .. math::
        f  = g_n(x) + g_{n-1}(x) + ...g_1(x) + g_0(x)
    """

    def call(self, p, x, i, *args):
        output = 0.0
        # PARALLELIZABLE
        for k, model in enumerate(self.models):
            indices = self.get_indices(k)
            output += model(p[indices], x, i, *args)
        return output

    def __add__(self, x):
        if isinstance(x, AdditiveModel):
            return AdditiveModel(models=[*self.models, *x.models])
        else:
            return AdditiveModel(models=[*self.models, x])

    def __radd__(self, x):
        if isinstance(x, AdditiveModel):
            return AdditiveModel(models=[*self.models, *x.models])
        else:
            return AdditiveModel(models=[*self.models, x])


class EnvelopModel(Model):
    """
    EnvelopModel similar to ContainerModel but only containers one submodel.
    """

    def __init__(self, model):
        super(EnvelopModel, self).__init__()
        self.model = model

    def __call__(self, p, *args):
        # if there are no parameters coming in, then use the stored parameters
        if len(p) == 0:
            return self.call(np.array([]), *args)
        else:
            return self.call(p, *args)

    def __getitem__(self, i):
        return self.model[i]

    def fit(self, *args):
        self.model.fit(*args)

    def fix(self, *args):
        self.model.fix(*args)

    def to_device(self, device):
        """
        Move all parameters to given device
        """
        self.p = jax.device_put(self.model.p, device)

    def _unpack(self, p):
        self.model._unpack(p)

    def get_parameters(self):
        return self.model.get_parameters()

    def display(self, string=""):
        super(EnvelopModel, self).display(string)
        tab = "  "
        string += tab
        self.model.display(string)
        string = string[: -len(tab)]

    def split_p(self, p):
        return self.model.split_p(p)


class JaxEnvLinearModel(EnvelopModel):
    """
    Applies jax interpolation to the incoming parameters, then hands them to the submodel.
    .. math::
        f = g(j(p),x)
    """

    def __init__(self, xs, model, p=None):
        super(JaxEnvLinearModel, self).__init__(model)
        self.xs = xs
        if p is not None:
            if p.shape == self.xs.shape:
                self.p = p
            else:
                logging.error(
                    "p {} must be the same shape as x_grid {}".format(p.shape, xs.shape)
                )
        else:
            self.p = jnp.zeros(xs.shape)

    def call(self, p, x, i, *args):
        ys = self.model(p, self.xs, i, *args)
        y = jax.numpy.interp(x, self.xs, ys)
        return y


class ConvolutionalModel(Model):
    """
    Model that convolves the input, x, with parameters, p, using jax function.
    """

    def __init__(self, p=None, *args, **kwargs):
        super(ConvolutionalModel, self).__init__()
        if p is None:
            self.p = jnp.array([0, 1, 0])
        else:
            self.p = p

    def call(self, p, x, *args):
        y = jnp.convolve(x, p, mode="same")
        return y


class EpochSpecificModel(Model):
    """
    Subset of Models that have only have one parameter associated with each epoch, i.

    Parameters
    ----------
    epoches : `int`
        Number of epochs
    """

    def __init__(self, n, *args, **kwargs):
        super(EpochSpecificModel, self).__init__()
        self.n = n
        self._epoches = slice(0, n)

    def __call__(self, p, *args):
        # if there are no parameters coming in, then use the stored parameters
        if len(p) == 0:
            return self.call(self.p, *args)
        else:
            return self.call(p, *args)

    def grid_search(self, grid, loss, model, data, device, epoches=None):
        """
        Function that will individually grid search each parameter.

            Parameters
            ----------
            grid : `np.ndarray`
                (M,N) M searches at each epoch, N epoch array
            loss : `jabble.Loss`
                Objective being optimized.
            model : `jabble.Model`
                The full model.
            data : `jabble.Dataset`
                The dataset being optimized with respect to.

            Returns
            -------
            loss_arr : `jnp.array`
                (M,N) loss evaluated on full model at all grid values at their respective epochs.
            """

        if epoches is None:
            epoches = slice(0, self.n)

        model.fix()
        self.fit(epoches=epoches)
        if isinstance(model, jabble.model.ContainerModel):
            model.get_parameters()

        datablock, metablock, keys = data.blockify(device,return_keys=True)
        def _internal(grid):
            Q = jnp.zeros((len(data)))

            for iii in range(len(Q)):
                datarow = jabble.loss.dict_ele(datablock,iii,device)
                metarow = jabble.loss.dict_ele(metablock,iii,device)
                
                Q = Q.at[iii].set(loss(grid, datarow, metarow, model).sum().astype(np.double))

            uniques = np.unique(metablock[self.which_key])

            out = jnp.zeros(self.p.shape)
            for iii,unq in enumerate(uniques):
                out = out.at[unq].set(Q[np.where(metablock[self.which_key] == unq)].sum())
            return out

        loss_arr = jax.vmap(_internal, in_axes=(1), out_axes=1)(
            grid
        )
        return loss_arr

    def parabola_fit(self, array1d, loss, model, data, device_1, device_2):
        """
        Finds parabolic minima of the grid search of parameters. Sets parameters to optimized result.

        Parameters
        ----------
        array1d : `np.ndarray`
            1-D array (M,) about each parameter to search.
        loss : `jabble.Loss`
            Objective being optimized.
        model : `jabble.Model`
            The full model.
        data : `jabble.Dataset`
            Dataset to optimize with respect to.

        """

        # First use grid search function to get loss grid.
        grid = np.array(self.p[:, None] + array1d[None, :])
        loss = np.array(self.grid_search(grid, loss, model, data, device_1))

        # Loop lowest value on loss grid and its 2 neighbors.
        # Fit a parabola, take derivative, then find root.
        def _internal(g, l):

            poly = jnp.polyfit(g, l, deg=2)
            g_min = jnp.roots(jnp.polyder(poly), strip_zeros=False).real
            return g_min, jnp.polyval(poly, g_min)

        minima = np.argmin(loss, axis=1).astype(int)
        mask_ends = ((minima == 0) + (minima == loss.shape[1]-1)).astype(bool)
        inds_i = np.arange(0, np.sum(~mask_ends), dtype=int).repeat(3).reshape(-1, 3)
        
        inds_j = (
            (minima[~mask_ends, None] + np.array([-1, 0, 1])[None, :]).flatten().reshape(-1, 3)
        )
        loss = jax.device_put(loss,device_2)
        grid = jax.device_put(grid,device_2)
        g_min, l_min = jax.vmap(_internal, in_axes=(0, 0), out_axes=0)(
            grid[inds_i, inds_j], loss[inds_i, inds_j]
        )
        g_min = jax.device_put(g_min,device_1)
        self.p = jax.device_put(self.p.at[~mask_ends].set(jnp.array(jnp.squeeze(g_min))),device_1)

    def add_component(self, value=0.0, n=1):
        """
        Add more epochs to model
        """
        self.p = np.concatenate((self.p, value * np.ones(n)))

    def fix(self, epoches=None):

        self._fit = False
        if epoches is not None:
            self._epoches = epoches

    def fit(self, epoches=None):

        self._fit = True
        if epoches is not None:
            self._epoches = epoches

    def get_parameters(self):
        if self._fit:
            return jnp.array(self.p)
        else:
            return jnp.array([])

    def f_info(self, model, data, device):
        """
        Get fischer information on parameters of the model.
        Since each parameter is independent of all other epochs, fischer information matrix is diagonal,
        thus returns this diagonal.

        Parameters
        ----------
        model : `jabble.Model`
            The full model to evaluate.
        data : `jabble.Dataset`
            Data to be evaluate.

        Returns
        -------
        f_info : 'jnp.array`
            (N,) array of diagonal of fischer information matrix.
        """
        model.fix()
        self.fit()
        model.display()

        datablock, metablock = data.blockify(device)
        # def _internal(self, p, datarow, metarow, model, *args)
        #     return loss(self, p, datarow, metarow, model, *args)
        duddx = jax.jacfwd(model, argnums=0)

        def get_dict(datablock, index):
            return {key: datablock[key][index] for key in datablock.keys()}

        # SUPPOSE TO BE FASTER, BUT KILLS KERNEL
        # LIKELY DUE TO MEM ALLOC
        # def _internal(datarow):
        #     return ((duddx(model.get_parameters(),datarow['xs'],datarow)**2) * datarow['yivar'][:,None]).sum(axis=0)
        # f_info = jax.vmap(_internal,(0),0)(datablock)

        f_info = np.zeros((len(data), len(model.get_parameters())))
        for i in range(len(data)):
            datarow = get_dict(datablock, i)
            metarow = get_dict(metablock, i)
            # sum over pixels
            # assumes diagonal variance in pixel, and time
            f_info[i, :] += jnp.where(~datarow["mask"][:, None]*np.ones(len(model.get_parameters()))[None, :],
                (duddx(model.get_parameters(), datarow["xs"], metarow) ** 2)
                * datarow["yivar"][:, None],
                0.0
            ).sum(axis=0)

            # f_info[i,:] += ((duddx(model.get_parameters(),datarow,metarow,model)**2) * datarow['yivar'][:,None]).sum(axis=0)
        # sum over datarows
        return f_info.sum(axis=0)


class ShiftingModel(EpochSpecificModel):
    """
    Model that adds different value to input at each epoch.
    .. math::
        f(p,x,i) = x + p[i]

    Parameters
    ----------
    p : `np.ndarray`
        N epoch length array of initial values of p.
    """

    def __init__(self, p=None, epoches=0,which_key='index' ,*args, **kwargs):
        if p is None:
            self.p = jnp.zeros(epoches)
        else:
            self.p = jnp.array(p)
            epoches = len(p)
        self.which_key = which_key
        super(ShiftingModel, self).__init__(epoches)

    def call(self, p, x, meta, *arg):

        return x - p[meta[self.which_key]]


# class ShiftingModel(EpochSpecificModel):
#     """
#     Model that adds different value to input at each epoch.
#     .. math::
#         f(p,x,i) = x + p[i]

#     Parameters
#     ----------
#     p : `np.ndarray`
#         N epoch length array of initial values of p.
#     """

#     def __init__(self, p=None, epoches=0, *args, **kwargs):
#         if p is None:
#             self.p = jnp.zeros(epoches)
#         else:
#             self.p = jnp.array(p)
#             epoches = len(p)
#         super(ShiftingModel, self).__init__(epoches)

#     def call(self, p, x, meta, *arg):

#         return x - p[meta["index"]]


class StretchingModel(EpochSpecificModel):
    """
    Model that multiplies different value to input at each epoch.
    .. math::
        f(p,x,i) = x * p[i]

    Parameters
    ----------
    p : `np.ndarray`
        N epoch length array of initial values of p.
    """

    def __init__(self, p=None, epoches=0, *args, **kwargs):
        if p is None:
            self.p = jnp.ones((epoches))
        else:
            self.p = p
            epoches = len(p)
        super(StretchingModel, self).__init__(epoches)

    def call(self, p, x, meta, *args):

        return p[meta["index"]] * x
    

# import jabble.cardinalspline  # scaffolding: module inlined in this file

@partial(jit, static_argnums=[3, 4, 5])
def cardinal_vmap_model(x, xp, ap, basis, a):
    """
    Evaluates cardinal basis using vmap design matrix.

    Parameters
    ----------
    x : `np.ndarray`
        array (N,) of x values to evaluate.
    xp : `np.ndarray`
        evenly spaced array (M,) of centerpoints of the basis functions
    ap : `np.ndarray`
        coefficient for basis functions
    basis : anything callable
        Basis function. Should probably make sense as a real basis function.
    a : `float`
        basis function must go to zero outside this value.

    Returns
    -------
    out : 'np.ndarray`
        y array (N,) of evaluated vmap cardinal basis
    """
    dx = xp[1] - xp[0]
    ap = jnp.array(ap)
    # assert np.all(dx == xp[1:] - xp[:-1])
    arange = jnp.floor(jnp.arange(-a - 1, a + 2, step=1.0)).astype(int)
    # get distance between each element and the closest cardinal basis to its left
    inputs = ((x - xp[0]) / dx) % 1
    # get index of the cardinal basis spline to datapoint's left
    index = ((x - xp[0]) // dx).astype(int)

    def _internal(inputs, index):

        return jnp.dot(ap[index - arange], basis(inputs + arange))

    out = jax.vmap(_internal, in_axes=(0, 0), out_axes=0)(inputs, index)

    return out

class CardinalSplineMixture(Model):
    """
    Model that evaluates input using full Irwin-Hall cardinal basis design matrix.

    Parameters
    ----------
    xs : `np.ndarray`
        centerpoints of cardinal (evenly spaced) basis functions
    p_val : `int`
        order of the Irwin-Hall basis functions
    p : `np.ndarray`
        the initial control points. If None, then initialized at zero.

    """

    def __init__(self, xs, p_val=2, p=None, *args, **kwargs):
        super(CardinalSplineMixture, self).__init__()
        # when defining ones own model, need to include inputs as xs, outputs as ys
        # and __call__ function that gets ya ther, and params (1d ndarray MUST BE BY SCIPY) to be fit
        # also assumes epoches of data that is shifted between
        self.spline = jabble.cardinalspline.CardinalSplineKernel(p_val)
        self.p_val = p_val
        self.xs = jnp.array(xs)
        if p is not None:
            if p.shape == self.xs.shape:
                self.p = p
            else:
                logging.error(
                    "p {} must be the same shape as x_grid {}".format(p.shape, xs.shape)
                )
        else:
            self.p = jnp.zeros(xs.shape)

    def call(self, p, x, *args):

        a = (self.p_val + 1) / 2
        y = cardinal_vmap_model(x, self.xs, p, self.spline, a)
        return y
    
    def save_hdf(self,file,index):
        group = super(CardinalSplineMixture,self).save_hdf(file,index)
        group.create_dataset("xs",data = self.xs)
        group.create_dataset("alphas", data = self.spline.alphas)
        group.create_dataset("p_val",data= self.p_val)
        return group
    
    def load_hdf(cls,group):

        return cls(xs=np.array(group["xs"]), p_val=int(np.array(group["p_val"])), p=np.array(group["p"]))
    

class NormalizationModel(Model):
    def __init__(self, p, model, size, *args, **kwargs):
        super(NormalizationModel, self).__init__()
        self.p = p#jnp.tile(model.p, size)
        self.model = model

        self.model_p_size = len(model.p)
        self.size = size

    def call(self, p, x, meta, *args):

        x = self.model.call(
            (p.reshape(self.size, self.model_p_size)[meta["index"]]).flatten(),
            x,
            meta,
            *args,
        )
        return x

    def save_hdf(self,file,index=[]):
        # group = file.create_group(self.model.__class__.__name__)
        group = super(NormalizationModel, self).save_hdf(file,index)
        model_group = self.model.save_hdf(group,index)
        # del model_group["p"]
        
        # file = super(NormalizationModel, self).save_hdf(file,index)
        group.create_dataset("size",data = self.size)
        # group.create_dataset("p",data = self.p)
        return file
    
    def load_hdf(cls,group):
        for key in group.keys():
            if key != "size":
                if key != "p":
                    cls_sub = eval(key.split(']')[-1])
                    temp_model = cls_sub.load_hdf(cls_sub,group[key])
        return cls(p=group["p"], model=temp_model, size=group["size"])

# ===== scaffolding: the optimize call of jabble.dataset.fit_continuum_jabble on a small synthetic spectrum =====
_rng = np.random.default_rng(0)  # scaffolding
x = np.linspace(8.50, 8.51, 60)  # scaffolding: log wavelengths
y = -0.05 * np.ones_like(x) + 0.01 * _rng.normal(size=x.shape)  # scaffolding: log fluxes
ivars = np.ones_like(x) * 1e4  # scaffolding
m = np.zeros(len(x), dtype=bool)  # scaffolding
device = jax.devices()[0]  # scaffolding
norm_p_val, norm_res = 2, 2000.0  # scaffolding
try:  # scaffolding
    # fit_continuum_jabble's setup and loop body (dataset.py), two sigma-clipping rounds:
    x_spacing = jabble.physics.delta_x(norm_res)
    x_grid = np.arange(x.min()-(norm_p_val*x_spacing),x.max()+(norm_p_val*x_spacing),x_spacing)
    loss = jabble.loss.ChiSquare()
    model = jabble.model.CardinalSplineMixture(x_grid, norm_p_val)
    for i in range(2):  # scaffolding: maxniter=2
        m[ivars == 0] = 1
        dataset = jabble.dataset.Data.from_lists([x],[y],[ivars],[m])
        model.fit()
        res = model.optimize(loss, dataset, device, device, batch_size=1, options={"maxiter": 5})
        model.fix()
    _report({"jit(cardinal_vmap_model)"}, 2)  # scaffolding: two optimize calls
except Exception as e:  # scaffolding
    import traceback; traceback.print_exc()
    print(f"ERROR {type(e).__name__}")  # scaffolding
