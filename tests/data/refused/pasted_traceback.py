# from: https://github.com/kael558/ComfyUI-GGUF-FantasyTalking/issues/4 (a log pasted into a triple-quoted string)
def run(model):
    return model.generate()


"""
!!! Exception during processing !!! mat1 and mat2 shapes cannot be multiplied
Traceback (most recent call last):
  File "C:\Users\me\AppData\Local\Programs\ComfyUI\execution.py", line 361, in execute
    output_data = get_output_data(obj, input_data_all)
  File "C:\Users\me\ComfyUI\custom_nodes\talking\nodes.py", line 88, in run
    return model.generate()
"""
