# source: https://github.com/sokrypton/ColabFold/commit/240caf35092b0da124b96d326d13b66a3bcb6049
# expect: shape-churn at line 156
# runtime: COMPILES 2 CALLS 5
# why: turbo mode compiles one model_runner and swaps in each model's params dict; model_1/2 params carry template modules that model_3-5 lack, so the pytree passed to the jitted apply changes and it compiles again at model_3 (2 compiles for 5 predictions).
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


# --- scaffolding: stand-ins for the notebook's earlier cells (alphafold.model, colabfold helpers, the MSA) ---
import types  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding
import tqdm  # scaffolding

TQDM_BAR_FORMAT = '{l_bar}{bar}| {n_fmt}/{total_fmt} [elapsed: {elapsed} remaining: {remaining}]'  # scaffolding
_NS = types.SimpleNamespace  # scaffolding


class config:  # scaffolding: alphafold.model.config
  @staticmethod  # scaffolding
  def model_config(name):  # scaffolding
    return _NS(data=_NS(common=_NS(max_extra_msa=5120, num_recycle=3),  # scaffolding
                        eval=_NS(max_msa_clusters=512, num_ensemble=1)),  # scaffolding
               model=_NS(num_recycle=3, recycle_tol=0))  # scaffolding


class data:  # scaffolding: alphafold.model.data; model_1/model_2 carry template modules, model_3-5 do not
  @staticmethod  # scaffolding
  def get_model_haiku_params(model_name, data_dir):  # scaffolding
    params = {'alphafold/alphafold_iteration/evoformer': {'weights': jnp.ones((8, 8))}}  # scaffolding
    if model_name.startswith(('model_1', 'model_2')):  # scaffolding
      params['alphafold/alphafold_iteration/evoformer/template_embedding'] = {'weights': jnp.ones((8, 8))}  # scaffolding
    return params  # scaffolding


class model:  # scaffolding: alphafold.model.model, RunModel reduced to its jitted haiku apply
  class RunModel:  # scaffolding
    def __init__(self, config, params=None):  # scaffolding
      self.config = config  # scaffolding
      self.params = params  # scaffolding
      def apply(params, rng, feat):  # scaffolding
        x = feat['msa_feat'] @ params['alphafold/alphafold_iteration/evoformer']['weights']  # scaffolding
        for k, v in params.items():  # scaffolding: haiku apply walks whatever params it is given
          x = x + 0.0 * v['weights'].sum()  # scaffolding
        return {'plddt': x.mean(-1), 'ptm': x.mean()}  # scaffolding
      self.apply = jax.jit(apply)  # scaffolding

    def process_features(self, raw_features, random_seed):  # scaffolding
      return raw_features  # scaffolding

    def predict(self, feat):  # scaffolding
      result = self.apply(self.params, jax.random.PRNGKey(0), feat)  # scaffolding
      return result, (3, 0.0)  # scaffolding


class cf:  # scaffolding: colabfold helpers
  clear_mem = staticmethod(lambda device: None)  # scaffolding
  to = staticmethod(lambda x, device: x)  # scaffolding


def parse_results(prediction_result, processed_feature_dict):  # scaffolding: the cell's parse_results without protein/pdb output
  out = {"plddt": prediction_result['plddt'], "sco": prediction_result['plddt'].mean()}  # scaffolding
  if "ptm" in prediction_result:  # scaffolding
    out.update({"ptm": prediction_result['ptm']})  # scaffolding
  return out  # scaffolding


msa_arr = np.zeros((16, 8))  # scaffolding: 16 sequences, length 8
homooligomer = 1  # scaffolding
feature_dict = {'msa_feat': jnp.ones((16, 8))}  # scaffolding

tqdm.notebook = tqdm  # scaffolding: tqdm.notebook needs a Jupyter front end
use_amber_relax = False  # scaffolding: set in cell 2 (Install software)

# cell 6
#@title Run AlphaFold 

use_ptm = True #@param {type:"boolean"}
max_recycles = 3 #@param [3,6,12,24,48] {type:"raw"}
tol = 0 #@param [0,0.1,0.5,1] {type:"raw"}
num_ensemble = 1 #@param [1,2,4,8] {type:"raw"}
num_samples = 1 #@param [1,2,4,8] {type:"raw"}

use_turbo = True #@param {type:"boolean"}
relax_all = False #@param {type:"boolean"}
save_pae_json = True

model_names = ['model_1', 'model_2', 'model_3', 'model_4', 'model_5']
total = len(model_names) * num_samples
if use_amber_relax:
  if relax_all: total += total
  else: total += 1

with tqdm.notebook.tqdm(total=total, bar_format=TQDM_BAR_FORMAT) as pbar:
  #######################################################################
  # precompile model and recompile only if length changes
  if use_turbo:
    name = "model_5_ptm" if use_ptm else "model_5"
    N = msa_arr.shape[0]
    L = msa_arr.shape[1] * homooligomer
    compiled = (N,L,use_ptm,max_recycles,tol,num_ensemble)
    if "COMPILED" in dir():
      if COMPILED != compiled: recompile = True
    else: recompile = True
    if recompile:
      cf.clear_mem("gpu")
      cfg = config.model_config(name)
      cfg.data.common.max_extra_msa = min(N,1024)
      cfg.data.eval.max_msa_clusters = min(N,512)
      cfg.data.common.num_recycle = max_recycles
      cfg.model.num_recycle = max_recycles
      cfg.model.recycle_tol = tol
      cfg.data.eval.num_ensemble = num_ensemble

      params = data.get_model_haiku_params(name,'./alphafold/data')
      model_runner = model.RunModel(cfg, params)
      COMPILED = compiled
      recompile = False
  else:
    cf.clear_mem("gpu")
    recompile = True

  # cleanup
  if "outs" in dir(): del outs
  outs = {}
  cf.clear_mem("cpu")  

  #######################################################################
  if use_turbo:
    for seed in range(num_samples): # for each seed
      processed_feature_dict = model_runner.process_features(feature_dict, random_seed=seed)
      for num, model_name in enumerate(model_names): # for each model
        name = model_name+"_ptm" if use_ptm else model_name
        key = f"{name}_seed_{seed}"
        pbar.set_description(f'Running {key}')
        name = model_name+"_ptm" if use_ptm else model_name
        model_runner.params = data.get_model_haiku_params(name, './alphafold/data')
        prediction_result, (r, t) = cf.to(model_runner.predict(processed_feature_dict),"cpu")
        outs[key] = parse_results(prediction_result, processed_feature_dict)
        pbar.update(n=1)
        print(f"{key} recycles:{r} tol:{t:.2f} plddt:{outs[key]['sco']:.2f}" + (f" ptm:{outs[key]['ptm']:.2f}" if use_ptm else ""))

        # cleanup
        del prediction_result
      # cleanup
      del processed_feature_dict
  else:
    for num, model_name in enumerate(model_names): # for each model
      name = model_name+"_ptm" if use_ptm else model_name
      params = data.get_model_haiku_params(name, './alphafold/data')      
      cfg = config.model_config(name)
      cfg.data.common.num_recycle = cfg.model.num_recycle = max_recycles
      cfg.model.recycle_tol = tol
      cfg.data.eval.num_ensemble = num_ensemble
      model_runner = model.RunModel(cfg, params)
      for seed in range(num_samples): # for each seed
        key = f"{name}_seed_{seed}"
        pbar.set_description(f'Running {key}')
        processed_feature_dict = model_runner.process_features(feature_dict, random_seed=seed)
        prediction_result, (r, t) = cf.to(model_runner.predict(processed_feature_dict),"cpu")        
        
        outs[key] = parse_results(prediction_result, processed_feature_dict)
        pbar.update(n=1)
        print(f"{key} recycles:{r} tol:{t:.2f} plddt:{outs[key]['sco']:.2f}" + (f" ptm:{outs[key]['ptm']:.4f}" if use_ptm else ""))

        # cleanup
        del processed_feature_dict
        del prediction_result

      # cleanup
      del model_runner
      del cfg      
      cf.clear_mem("gpu")

_report({"jit(apply)"}, len(model_names) * num_samples)  # scaffolding
