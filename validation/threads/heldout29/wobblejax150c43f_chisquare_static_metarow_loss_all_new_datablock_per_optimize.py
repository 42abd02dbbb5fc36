# source: https://github.com/mdd423/wobble_jax/commit/150c43fe879916b5f3709f332fb44e277925d3f6
# expect: changing-static at line 161
# runtime: COMPILES 6 CALLS 2
# why: loss_all is jitted with the DataBlocks as static arguments, and DataBlock hashes by id; optimize() blockifies the dataset into new DataBlocks on every call, so each optimize call retraces and recompiles loss_all (6 compiles for 2 optimize calls); the metarow marked static in ChiSquare.__call__ (the commit's subject) changes nothing measurable.
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

# ===== jabble/cardinalspline.py (wobble_jax @ 9ac0b8d) =====
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

# ===== jabble/physics.py (wobble_jax @ 9ac0b8d) =====
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

# ===== jabble/loss.py (wobble_jax @ 9ac0b8d) =====
# import jabble.model  # scaffolding: module inlined in this file
import numpy as np
import jax.numpy as jnp
import jax

from functools import partial

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

    @partial(jax.jit,static_argnums=(0,2,3,4,5,6,7))
    def loss_all(self, p, datablock, metablock, model, device_op, batch_size, margs=()):
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
        def _internal(datarow,metarow):
            return self(p, datarow, metarow, model, margs).sum()

        rounds = int(np.ceil(len(metablock) / batch_size))
        out = 0.0

        for iii in range(rounds):
            top = np.min([(iii + 1) * batch_size, len(datablock)])

            temp = jax.vmap(_internal, in_axes=(0,0), out_axes=0)(
                    datablock.slice((iii * batch_size),top).to_device(device_op),\
                    metablock.slice((iii * batch_size),top).to_device(device_op)
                    )
            out += temp.sum()
        return out
      
    def ready_indices(self, model):

        pass

    def __repr__(self) -> str:

        return (
            "{:.2e}".format(self.coefficient) + " {obj.__class__.__name__}".format(obj=self) + "()"
        )


class LossSequential(LossFunc):
    def __init__(self, loss_funcs):
        # super().__init__(self)
        self.loss_funcs = loss_funcs

    @partial(jax.jit,static_argnums=(0,3,4,5))
    def __call__(self, p, datarow, metarow, model, margs=()):
        output = 0.0
        for loss in self.loss_funcs:
            output += loss(p, datarow, metarow, model, margs).sum()
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

    def __mul__(self, x):
        for loss in self.loss_funcs:
            loss.coefficient *= x
        return self

    def __rmul__(self, x):
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


class ChiSquare(LossFunc):
    @partial(jax.jit,static_argnums=(0,3,4,5))
    def __call__(self, p, datarow, metarow, model, margs=()):

        return self.coefficient * jnp.where(
            ~datarow.mask,
            0.5 * datarow.yivar
            * (((datarow.ys - model(p, datarow.xs, metarow, margs)) ** 2)),
            0.0,
        )

class L2Loss(LossFunc):
    @partial(jax.jit,static_argnums=(0,3,4,5))
    def __call__(self, p, datarow, metarow, model, margs=()):

        return self.coefficient * jnp.where(
            ~datarow.mask,
            (((datarow.ys - model(p, datarow.xs, metarow, margs)) ** 2)),
            0.0,
        )


class L2Reg(LossFunc):
    def __init__(self, submodel_inds=True, coefficient=1.0, constant=0.0):
        super(L2Reg, self).__init__(coefficient)
        self.constant = constant
        self.submodel_inds = submodel_inds
        # self.indices       = get_submodel_indices(model,*self.submodel_inds)

    def ready_indices(self, model):
        self.indices = jabble.model.get_submodel_indices(model, *self.submodel_inds)
    @partial(jax.jit,static_argnums=(0,3,4,5))
    def __call__(self, p, datarow, metarow, model, margs=()):
        err = self.coefficient * 0.5 * ((p[self.indices] - self.constant) ** 2)
        return err

    def __repr__(self) -> str:

        return (
            str(self.coefficient)
            + " {obj.__class__.__name__}".format(obj=self)
            + "({obj.submodel_inds})".format(obj=self)
        )
    
class L1Reg(L2Reg):
    @partial(jax.jit,static_argnums=(0,3,4,5))
    def __call__(self, p, datarow, metarow, model, margs=()):
        err = self.coefficient * jnp.abs(p[self.indices] - self.constant)
        return err

# ===== jabble/dataset.py (wobble_jax @ 9ac0b8d) =====
from dataclasses import dataclass

# Third Party
import numpy as np
import numpy.polynomial as polynomial

import scipy.ndimage

import jax.numpy as jnp
import jax

# import jabble.loss  # scaffolding: module inlined in this file
# import jabble.model  # scaffolding: module inlined in this file

# from frozendict import frozendict

def fit_continuum_jabble(x, y, ivars, device_store, device_op, norm_p_val, norm_res, nsigma=[0.8,3.0], maxniter=50,options={}):
    """Fit the continuum using sigma clipping

    Args:
        x: The wavelengths
        y: The log-fluxes
        order: The polynomial order to use
        nsigma: The sigma clipping threshold: tuple (low, high)
        maxniter: The maximum number of iterations to do

    Returns:
        The value of the continuum at the wavelengths in x
        Author: Matt Daunt

    """
    # A = np.vander(x - np.nanmean(x), order+1)
    m = np.zeros(len(x), dtype=bool)

    # x_num = int((np.exp(x.max()) - np.exp(x.min())) * pts_per_wavelength)
    x_spacing = jabble.physics.delta_x(norm_res)

    x_grid = np.arange(x.min()-(norm_p_val*x_spacing),x.max()+(norm_p_val*x_spacing),x_spacing)

    print(len(x_grid))
    loss = jabble.loss.ChiSquare()
    model = jabble.model.CardinalSplineMixture(x_grid, norm_p_val)

    for i in range(maxniter):
        m[ivars == 0] = 1

        # print(np.sum(~m))
        dataset = jabble.dataset.Data.from_lists([x],[y],[ivars],[m])
        model.fit()
        # model.display()
        # options = {'pgtol': 1e-10}
        res = model.optimize(loss, dataset, device_store, device_op, batch_size=1,options=options)
        model.fix()
        
        resid = y - model([],x)
        sigma = np.sqrt(np.nanmedian(resid**2))
        m_new = ~np.array((resid > (-nsigma[0]*sigma)) & (resid < (nsigma[1]*sigma)))
        m_new[ivars == 0] = 1

        # plt.errorbar(x,y,yerr=1/np.sqrt(ivars),fmt='.k',zorder=1,alpha=0.1,ms=5)
        # plt.plot(x,model([],x),'-r',zorder=2,alpha=0.4,ms=5)
        # plt.plot(x_grid,model([],x_grid),'.r',zorder=3,alpha=0.5,ms=5)
        # plt.plot(x,model([],x)-(nsigma[0]*sigma),'-b',zorder=2,alpha=0.4,ms=5)
        # plt.plot(x,model([],x)+(nsigma[1]*sigma),'-b',zorder=2,alpha=0.4,ms=5)
        # plt.plot(x[~m_new],y[~m_new],'og',zorder=2,alpha=0.2,ms=5)
        # plt.ylim(-5,1)
        # plt.show()
        #m_new = np.abs(resid) < nsigma*sigma

        print(m.sum(),m_new.sum())
        if m.sum() == m_new.sum():
            print('break')
            m = m_new
            break
        m = m_new
    
    return model([],x)

def fit_continuum(x, y, ivars, order=6, nsigma=[0.3,3.0], maxniter=50):
    """Fit the continuum using sigma clipping

    Args:
        x: The wavelengths
        y: The log-fluxes
        order: The polynomial order to use
        nsigma: The sigma clipping threshold: tuple (low, high)
        maxniter: The maximum number of iterations to do

    Returns:
        The value of the continuum at the wavelengths in x

    """
    A = np.vander(x - np.nanmean(x), order+1)
    m = np.ones(len(x), dtype=bool)
    for i in range(maxniter):
        m[ivars == 0] = 0  # mask out the bad pixels
        w = np.linalg.solve(np.dot(A[m].T, A[m]), np.dot(A[m].T, y[m]))
        mu = np.dot(A, w)
        resid = y - mu
        sigma = np.sqrt(np.nanmedian(resid**2))
        #m_new = np.abs(resid) < nsigma*sigma
        m_new = (resid > -nsigma[0]*sigma) & (resid < nsigma[1]*sigma)
        if m.sum() == m_new.sum():
            m = m_new
            break
        m = m_new
    return mu
        
class DataBlock:
    def __init__(self,**kwargs):
        self.__dict__.update(kwargs)
    
    def __hash__(self):
        return id(self)
    
    def __eq__(self, other):
        return self is other

    def __getitem__(self, key):
        return self.__dict__[key]

    def __len__(self):
        return self.__dict__[list(self.__dict__.keys())[0]].shape[0]
    
    def slice(self, start, stop):
        return DataBlock(**{k: v[start:stop] for k, v in self.__dict__.items()})
    
    def ele(self, i):
        return DataBlock(**{k: v[i] for k, v in self.__dict__.items()})

    def to_device(self,device):
        for key in self.__dict__.keys():
            self.__dict__[key]  = jax.device_put(self.__dict__[key], device)
        return self
            

# register so JAX can vmap over it
jax.tree_util.register_pytree_node(
    DataBlock,
    lambda x: (list(x.__dict__.values()), list(x.__dict__.keys())),  # flatten
    lambda keys, vals: DataBlock(**dict(zip(keys, vals)))               # unflatten
)


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

    def blockify(data, device=None):
        if device is None:
            device = data[0].xs.device
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

        ###########################################################

        index_span = np.arange(0, len(data), dtype=int)
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
            
            data.metakeys[key] = epoch_uniques
            metablock[key] = epoch_indices.astype(int)

        return DataBlock(**datablock), DataBlock(**metablock)

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

# ===== jabble/model.py (wobble_jax @ 9ac0b8d) =====
import numpy as np
import math
import jax
import jax.numpy as jnp
import jax.experimental.sparse

# import jaxopt

import jax.scipy.optimize
import scipy.signal as signal
import scipy.constants
from functools import partial
# import h5py  # scaffolding: not installed; only used by save/load and get_star_velocity, not called

import copy

# import astropy.constants as const  # scaffolding: not installed; only used by save/load and get_star_velocity, not called
import logging

import pickle  # 5 as pickle
# import jabble.dataset  # scaffolding: module inlined in this file
# import jabble.physics  # scaffolding: module inlined in this file

def get_submodel_indices(self, i, j=None, *args):
    # this recurses through submodels when given a set of indices to that submodel
    # then returns of a bool array of the length of the total number of parameters
    # of whole model
    # with 1's at the parameters of the specific submodel, 0's elsewhere
    s_temp = self.get_indices(i)
    if j is not None:
        temp = get_submodel_indices(self,j,*args)
        s_inds = s_temp[temp]
        return s_inds
    return s_temp

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
    size = int(math.ceil((x_max - x_min + 2 * x_padding) / step))
    model_grid = np.linspace(x_min - x_padding, x_max + x_padding, size)
    return model_grid


class Model:
    """
    Base Model class with scipy optimizer using jax.

    Attributes
    ----------
    p : `jnp.ndarray`
        jax array of parameters of the model
    _fit : `bool`
        If True, model is in fitting mode, all parameters will be varied during optimization.
    results : `np.ndarray`
        Structured array of results from optimization calls.
    metadata : `dict`
        Dictionary to hold any metadata for the model.
    """

    def __init__(self, *args, **kwargs):
        self._fit = False

        self.results = np.empty(shape=(0),dtype=[('task', 'U64'), ('funcalls', int),\
                                                            ('nit',int), ('warnflag',int),('f',np.double),('loss','U64')])

        self.metadata = {}

    @partial(jax.jit, static_argnums=(0, 4))
    def __call__(self, p, x, meta, margs=()):
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
            return self.call(self.p, x, meta, margs)
        else:
            assert self._fit == True
            return self.call(p, x, meta, margs)

    def gaussnewton(self, data, *args):
        """
        Deprecated!
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
        Choosen optimizer for jabble is jax.scipy.optimize.minimize 'bfgs'.
        optimizes all parameters in fit mode with respect to the loss function using jabble.Dataset

        Parameters
        ----------
        loss : `jabble.Loss`
            jabble.Loss function to be minimized during optimization
        data : `jabble.Dataset`
            jabble.Dataset, that is handed to the Loss function during optimization
        device_store : jax.Device
            Device to store data on
        device_op : jax.Device
            Device to perform operations on
        batch_size : int
            Number of data epochs to use in each optimization step
        options : dict
            Options to pass to the optimizer
        Returns
        ----------
        d : `dict`
            Results from scipy.fmin_l_bgs_b call
        """

        # blockify dataset
        datablock,metablock = data.blockify(device_store)

        ##########################################################
        loss.ready_indices(self)
        
        x,f,d = scipy.optimize.fmin_l_bfgs_b(
            func=loss.loss_all,
            fprime=jax.grad(loss.loss_all),
            x0=self.get_parameters(),
            args=(datablock, metablock, self, device_op, batch_size),
            **options,
        )
        # print(result)
        self.results = np.append(self.results, np.array([(d['task'],d['funcalls'],d['nit'],d['warnflag'],f,repr(loss)),],\
                                                        dtype=[('task', 'U64'), ('funcalls', int),\
                                                            ('nit',int), ('warnflag',int),('f',np.double),('loss','U64')]), axis=0) 
        self._unpack(jax.device_put(jnp.array(x), device_op))
        return x,f,d
    
    def __add__(self, x):
        if isinstance(x, AdditiveModel):
            return AdditiveModel(models=[self, *x.models])
        return AdditiveModel(models=[self, x])

    def __radd__(self, model):
        '''
        Combine two models additively, where the output of self and model are summed
        y = self(x) + model(x)
        Parameters
        ----------
        model : `jabble.Model`
            Model to add to self

        Returns
        -------
        additive_model : `jabble.Model`
            AdditiveModel object with self and model summed
        '''
        return AdditiveModel(models=[self, model])

    def composite(self, model):
        '''
        Combine two models in series, where the output of self is the input to model
        y = model(self(x))
         Parameters
         ----------
         model : `jabble.Model`
             Model to apply after self

         Returns
         -------
         composite_model : `jabble.Model`
             CompositeModel object with self and model in series
         '''
        return CompositeModel(models=[self, model])

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

    def fisher_full(model, data, device):
        """
        Get full fischer information on parameters of the model.
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
        model.fit()
        model.display()

        datablock,metablock = data.blockify(device)
        # def _internal(self, p, datarow, metarow, model, *args)
        #     return loss(self, p, datarow, metarow, model, *args)
        dfdt = jax.jacfwd(model, argnums=0)

        curvature_all = np.zeros((len(data),datablock['xs'].shape[1], len(model.get_parameters())))

        for i in range(len(data)):
            datarow = datablock.ele(i).to_device(device)
            metarow = metablock.ele(i).to_device(device)
        
            curvature_all[i,:,:] = jnp.where(~datarow["mask"][:, None]*\
                                    np.ones(len(model.get_parameters()))[None, :],
                (dfdt(model.get_parameters(), datarow["xs"], metarow)),
                0.0
            )

        f_info = np.zeros((len(model.get_parameters()),len(model.get_parameters())))
        for i in range(len(data)):
            datarow = datablock.ele(i).to_device(device)
            
            f_info += np.einsum('j,jn,jm->nm',datarow['yivar'][:],curvature_all[i,:,:],\
                        curvature_all[i,:,:])

        return f_info

    def transform_variance(model,xp,xq,covar,metarowp={},metarowq={}):
        '''
        Given covariance matrix of parameters, transform to covariance of model outputs at points xp and xq
        Parameters
        ----------
        model : `jabble.Model`
            The full model to evaluate.
        xp : `jnp.array`
            First set of points to evaluate variance at
        xq : `jnp.array`
            Second set of points to evaluate variance at
        covar : `jnp.array`
            Covariance matrix of the parameters of the model
        metarowp : `dict`, optional
            Metadata dictionary for points xp, by default {}
        metarowq : `dict`, optional
            Metadata dictionary for points xq, by default {}
        Returns
        -------
        transformed_covar : `jnp.array`
            Covariance matrix of model outputs between points xp and xq
        '''
        model.fit()
        dydt = jax.jacfwd(model, argnums=0)
        dypdt = dydt(model.get_parameters(),xp,metarowp)
        dyqdt = dydt(model.get_parameters(),xq,metarowq)
        model.fix()
        return dypdt @ covar @ dyqdt.transpose()


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
        self.create_param_indices()

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
        self.create_param_indices()

    @partial(jax.jit, static_argnums=(0, 4))
    def __call__(self, p, x, meta, margs=()):

        if len(p) == 0:
            return self.call(jnp.array([]), x, meta, margs)
        else:
            return self.call(p, x, meta, margs)

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
        self.create_param_indices()
        return x

    def create_param_indices(self):
        self._param_indices = []
        for i in range(self.size):
            start = int(jnp.sum(self._parameters_per_model[:i]))
            stop = int(jnp.sum(self._parameters_per_model[:i+1]))
            self._param_indices.append(jnp.arange(start, stop))

    def get_indices(self, i):
        return self._param_indices[i]

    def split_p(self, p):
        p_list = [p[self.get_indices(k)] for k in range(len(self._parameters_per_model))]

        return p_list

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
        self.create_param_indices()

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
        self.create_param_indices()

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

    def copy(self):
        return self.__class__(models=copy.deepcopy(self.models))

    def save_history(self, p):
        for i, model in enumerate(self.models):
            model.save_history(p[self.get_indices(i)])

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

    

        # model that have submodels can be defined by nested lists, split_p will split a length A+N array into A and N
    
    def tree_sum(model,p_list,reduce_index):
        '''where A and N are the length of the parameters, theta of submodels. If a submodel is container of containers 
        like fs(g(x|theta_a)|theta_n) + ft(g(x|theta_b)|theta_m)
        then split_p only drops one layer down, (A+N,B+M)
        thus split (A+N) -> A,N '''
        sum_list = []
        for i,(ele,submodel) in enumerate(zip(p_list,model.models)):
            if isinstance(submodel, jabble.model.ContainerModel) and i == reduce_index[0]:
                new_list, mark_temp = submodel.tree_sum(submodel.split_p(ele),reduce_index[1:])
                mark_ele = mark_temp + i
                sum_list += new_list
            else:
                if i == reduce_index[0]:
                    mark_ele = i
                sum_list.append(len(ele))
        return sum_list, mark_ele
    
    def reduce_fisher(model,f_info,reduce_index):
        '''
        Given full fischer information matrix of model, reduce to fischer information of submodel at reduce_index
        Parameters
        ----------
        model : `jabble.Model`
            The full model to evaluate.
        f_info : `jnp.array`
            Full fischer information matrix of the model.
        reduce_index : `list`
            List of indices to reduce down to the submodel of interest.
        Returns
        -------
        reduced_f_info : 'jnp.array`
            Reduced fischer information matrix of the submodel at reduce_index.
        '''
        # NOW REDUCE
        p_list = model.split_p(model.get_parameters())
        sum_list, mark_ele = model.tree_sum(p_list,reduce_index)

        print(sum_list,mark_ele)
        print('a',0,int(np.sum(sum_list[:mark_ele])),int(np.sum(sum_list[:mark_ele+1])),0,\
            '\nn',int(np.sum(sum_list[:mark_ele])),int(np.sum(sum_list[:mark_ele+1])))

        faa_info_uu = f_info[0:int(np.sum(sum_list[:mark_ele])),0:int(np.sum(sum_list[:mark_ele]))]
        faa_info_ub = f_info[0:int(np.sum(sum_list[:mark_ele])),int(np.sum(sum_list[:mark_ele+1])):-1]
        faa_info_bb = f_info[int(np.sum(sum_list[:mark_ele+1])):-1,int(np.sum(sum_list[:mark_ele+1])):-1]
        faa_info_bu = f_info[int(np.sum(sum_list[:mark_ele+1])):-1,0:int(np.sum(sum_list[:mark_ele]))]

        faa_info = np.block([[faa_info_uu,faa_info_ub],[faa_info_bu,faa_info_bb]])

        fnn_info = f_info[int(np.sum(sum_list[:mark_ele])):int(np.sum(sum_list[:mark_ele+1])),\
                        int(np.sum(sum_list[:mark_ele])):int(np.sum(sum_list[:mark_ele+1]))]

        fan_info_l = f_info[int(np.sum(sum_list[:mark_ele])):int(np.sum(sum_list[:mark_ele+1])),\
                            0:int(np.sum(sum_list[:mark_ele]))]
        fan_info_r = f_info[int(np.sum(sum_list[:mark_ele])):int(np.sum(sum_list[:mark_ele+1])),\
                            int(np.sum(sum_list[:mark_ele+1])):-1]
        
        fan_info = np.concatenate([fan_info_l,fan_info_r],axis=1)

        fna_info_t = f_info[0:int(np.sum(sum_list[:mark_ele])),\
                            int(np.sum(sum_list[:mark_ele])):int(np.sum(sum_list[:mark_ele+1]))]
        fna_info_b = f_info[int(np.sum(sum_list[:mark_ele+1])):-1,\
                            int(np.sum(sum_list[:mark_ele])):int(np.sum(sum_list[:mark_ele+1]))]
        
        fna_info = np.concatenate([fna_info_t,fna_info_b],axis=0)

        print(fna_info.shape,fan_info.shape,faa_info.shape,fnn_info.shape)
        return fnn_info - (fan_info @ np.linalg.inv(faa_info) @ fna_info)
    

class CompositeModel(ContainerModel):
    """
    ContainerModel sequentially applies models to input.
    .. math::
        f  = g_n(g_{n-1}(...g_1(g_0(x))))
    """
    @partial(jax.jit, static_argnums=(0, 4))
    def call(self, p, x, meta, margs=()):
        for k, model in enumerate(self.models):
            indices = self.get_indices(k)
            x = model(p[indices], x, meta, margs)
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
    @partial(jax.jit, static_argnums=(0, 4))
    def call(self, p, x, meta, margs=()):
        output = 0.0
        # PARALLELIZABLE
        for k, model in enumerate(self.models):
            indices = self.get_indices(k)
            output += model(p[indices], x, meta, margs)
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
    # @partial(jax.jit, static_argnums=(0, 2, 3, 4))
    def __call__(self,  p, x, meta, margs=()):
        # if there are no parameters coming in, then use the stored parameters
        if len(p) == 0:
            return self.call(np.array([]), x, meta, margs)
        else:
            return self.call(p, x, meta, margs)

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
    # @partial(jax.jit, static_argnums=(0, 2, 3, 4))
    def call(self, p, x, meta, margs=()):
        y = jnp.convolve(x, p, mode="same")
        return y


class EpochSpecificModel(Model):
    """
    Subset of Models that have only have one parameter associated with each epoch, i.

    Parameters
    ----------
    n : `int`
        Number of epochs
    """

    def __init__(self, n, *args, **kwargs):
        super(EpochSpecificModel, self).__init__()
        self.n = n
        self._epoches = slice(0, n)
    @partial(jax.jit, static_argnums=(0, 4))
    def __call__(self, p, x, meta, margs=()):
        # if there are no parameters coming in, then use the stored parameters
        if len(p) == 0:
            return self.call(self.p, x, meta, margs)
        else:
            return self.call(p, x, meta, margs)

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

        datablock,metablock = data.blockify(device)
        def _internal(grid):
            Q = jnp.zeros((len(data)))

            for iii in range(len(Q)):
                datarow = datablock.ele(iii).to_device(device)
                metarow = metablock.ele(iii).to_device(device)
                
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
        device : `jax.Device`
            Device to perform operations on.

        Returns
        -------
        f_info : 'jnp.array`
            (N,) array of diagonal of fischer information matrix.
        """
        model.fix()
        self.fit()
        model.display()

        datablock,metablock = data.blockify(device)
        # def _internal(self, p, datarow, metarow, model, *args)
        #     return loss(self, p, datarow, metarow, model, *args)
        duddx = jax.jacfwd(model, argnums=0)


        f_info = np.zeros((len(data), len(model.get_parameters())))
        for i in range(len(data)):
            datarow = datablock.ele(i).to_device(device)
            metarow = metablock.ele(i).to_device(device)
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
    which_key : `str`
        Key in the metadata dictionary to use for epoch indexing.
    """

    def __init__(self, p,which_key='index' ,*args, **kwargs):
    
        self.p = jnp.array(p)
        epoches = len(p)
        self.which_key = which_key
        super(ShiftingModel, self).__init__(epoches)
    @partial(jax.jit, static_argnums=(0, 4))
    def call(self, p, x, meta, margs=()):

        return x - p[meta[self.which_key]]


class StretchingModel(EpochSpecificModel):
    """
    Model that multiplies different value to input at each epoch.
    .. math::
        f(p,x,i) = x * p[i]

    Parameters
    ----------
    p : `np.ndarray`
        N epoch length array of initial values of p.
    which_key : `str`
        Key in the metadata dictionary to use for epoch indexing.
    """

    def __init__(self, p, which_key='index',*args, **kwargs):
        
        self.p = jnp.array(p)
        self.which_key = which_key
        epoches = len(p)
        super(StretchingModel, self).__init__(epoches)
    @partial(jax.jit, static_argnums=(0, 4))
    def call(self, p, x, meta, margs=()):

        return p[meta[self.which_key]] * x
    

# import jabble.cardinalspline  # scaffolding: module inlined in this file

@partial(jax.jit, static_argnums=[3, 4])
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
    @partial(jax.jit, static_argnums=(0, 4))
    def call(self, p, x, meta, margs=()):

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
    

def cardinal_vmap_matrix(x, xp, basis, a):
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
    # get distance between each element and the closest cardinal basis to its left
    inputs = ((xp[:,None] - x[None,:]) / dx)
    # get index of the cardinal basis spline to datapoint's left
    out = basis(inputs)
    return out


class FullCardinalSplineMixture(CardinalSplineMixture):
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

    def __init__(self, xs, p_val=2, p=None):
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
    @partial(jax.jit, static_argnums=(0, 4))
    def call(self, p, x, meta, margs=()):

        a = (self.p_val + 1) / 2
        y = p @ cardinal_vmap_matrix(x, self.xs, self.spline, a)
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
    '''
    Model that applies model to each input, x, with different parameters based on epoch index.
    .. math::
        f(p,x,i) = g(p[i],x)
    Parameters
    ----------
    p : `np.ndarray`
        N* M length array of initial values of p, where N is number of epochs, M is number of parameters in submodel.
    model : `jabble.Model`
        Submodel to be applied with different parameters at each epoch.
    size : `int`
        Number of epochs.
    which_key : `str`
        Key in the metadata dictionary to use for epoch indexing.
    '''
    def __init__(self, p, model, size, which_key='index'):
        super(NormalizationModel, self).__init__()
        self.p = p#jnp.tile(model.p, size)
        self.model = model

        self.which_key = which_key
        self.model_p_size = len(model.p)
        self.size = size
    @partial(jax.jit, static_argnums=(0, 4))
    def call(self, p, x, meta, margs=()):

        x = self.model.call(
            (p.reshape(self.size, self.model_p_size)[meta[self.which_key]]).flatten(),
            x,
            meta,
            margs,
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
    _report({"jit(loss_all)"}, 2)  # scaffolding: two optimize calls
except Exception as e:  # scaffolding
    import traceback; traceback.print_exc()
    print(f"ERROR {type(e).__name__}")  # scaffolding
