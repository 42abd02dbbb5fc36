# source: https://github.com/lucadimascolo/socca/commit/a73e12fdf7766788808d33874300bc32f8d9fce0
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The fix drops @jax.jit from the static method and jits a closure over the data, masks, apodization and ftype built once in __call__, so only the model map is traced and the likelihood compiles once for all evaluations.

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
# socca/utils.py (the imports noise.py takes from it)
import jax; jax.config.update('jax_enable_x64',True)
import jax.numpy as jp
import numpy as np
import warnings


def convolve(*args, **kwargs):  # scaffolding: astropy.convolution.convolve (not installed; unused with smooth=0)
    raise NotImplementedError  # scaffolding


CustomKernel = None  # scaffolding: astropy.convolution.CustomKernel


# socca/noise.py
# ========================================================
class NormalFourier:
    """
    Noise model with independent noise in Fourier space.
    The noise covariance is defined in Fourier space.
    
    Attributes
    ----------
    cmask : jax.numpy.ndarray
        Boolean mask indicating which Fourier modes have non-zero noise.
    ftype : str
        Type of Fourier transform to use. Options are:
        - 'real' or 'rfft': real-to-complex FFT (for real input data)
        - 'full' or 'fft': complex-to-complex FFT (for complex input data)
    apod : jax.numpy.ndarray
        Apodization map applied to the data before Fourier transforming.
    cov : jax.numpy.ndarray
        Noise covariance in Fourier space.
    icov : jax.numpy.ndarray
        Inverse noise covariance in Fourier space.
    norm : float
        Normalization constant for the log-pdf.
    data : jax.numpy.ndarray
        Image data array. This is set when the model is called.
    mask : jax.numpy.ndarray
        Image mask array. This is set when the model is called.
    """
    def __init__(self,cov=None,cube=None,ftype='real',**kwargs):
        """
        Parameters
        ----------
        cov : array_like, optional
            Noise covariance in Fourier space. If not provided, computed from cube.
        cube : array_like, optional
            3D array of noise realizations. First dimension is the number
            of realizations. Used to compute covariance if cov is None.
        ftype : str, optional, default 'real'
            Type of Fourier transform to use. Options are:
            - 'real' or 'rfft': real-to-complex FFT (for real input data)
            - 'full' or 'fft': complex-to-complex FFT (for complex input data)
        """
        if ftype not in ['real','rfft','full','fft']:
            raise ValueError("ftype must be either 'real'/'rfft' or 'full'/'fft'.")
        self.ftype = ftype

        if cube is not None and cov is None:
            cube = jp.array(cube)

            self.apod = kwargs.get('apod',jp.ones((cube.shape[-2],cube.shape[-1])))
            
            fft = jp.fft.rfft2  if ftype in ['real','rfft'] else jp.fft.fft2
            cov = fft(cube*self.apod[None,...],axes=(-2,-1))
            cov = jp.mean(jp.abs(cov)**2,axis=0)/jp.mean(self.apod**2)

            smooth = kwargs.get('smooth',3)
            if smooth>0:
                kernel = kwargs.get('kernel',None)
                if kernel is None:
                    kernel = np.array([[0.00,1.00,0.00],
                                       [1.00,1.00,1.00],
                                       [0.00,1.00,0.00]])/5.00
                    kernel = CustomKernel(kernel)

                for _ in range(smooth): 
                    cov = jp.array(convolve(cov,kernel,boundary='wrap'))
        elif cov is not None and cube is not None:
            warnings.warn('Both covariance matrix and noise cube provided. \
                           Using covariance matrix.')
        elif cov is None and cube is None:
            raise ValueError('Either covariance matrix or noise realization cube must be provided.')

        self.cov  = jp.asarray(cov.astype(float))
        self.icov = 1.00/self.cov

        mask_icov = jp.logical_or(self.icov==jp.inf,jp.isnan(self.icov))
        self.icov = self.icov.at[mask_icov].set(0.00)
        del mask_icov

#   Set up noise model
#   --------------------------------------------------------
    def __call__(self,data,mask):
        self.dmask = mask.copy()
        self.dmask = self.dmask==1.00
        self.data = data.copy()
        
        self.cmask = self.icov!=0.00

        self.norm = jp.log(2.00*jp.pi*self.cov.at[self.cmask].get()).sum()
        
        def _logpdf(xs):
            factor = self._logpdf(xs,self.data,
                                     self.icov,
                                     self.dmask,
                                     self.cmask,
                                     self.apod,
                                     self.ftype)
            return factor-0.50*self.norm
        
        self.logpdf = jax.jit(_logpdf)

#   Noise log-pdf/likelihood function
#   --------------------------------------------------------
    @staticmethod
    def _logpdf(x,data,icov,dmask,cmask,apod,ftype='real'):
        fft = jp.fft.rfft2 if ftype in ['real','rfft'] else jp.fft.fft2

        xmap = jp.zeros(dmask.shape)
        xmap = xmap.at[dmask].set(x)

        chisq = fft((xmap-data)*apod,axes=(-2,-1))
        chisq = icov*jp.abs(chisq)**2
        return -0.50*jp.sum(chisq.at[cmask].get())


# scaffolding: a noise model built from simulated noise realizations, then evaluated at a few model maps
rng = np.random.default_rng(0)  # scaffolding
cube = rng.normal(size=(8, 32, 32))  # scaffolding: noise realizations
data = rng.normal(size=(32, 32))  # scaffolding: image
mask = np.ones((32, 32))  # scaffolding: image mask
noise = NormalFourier(cube=cube, ftype='real', smooth=0)  # scaffolding
noise(data, mask)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for scale in [0.5, 1.0, 1.5]:  # scaffolding: model maps proposed by the sampler
        xs = jp.asarray(scale * data.ravel())  # scaffolding
        lp = noise.logpdf(xs)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(_logpdf)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
