/* A C host of mo's runtime (mo-c/Runtime.h): loads the .mef in argv[1],
 * prints its signature, binds the weight "w" (float32 [3], 0.5 each), runs
 * input 0 as float32 [rows, 3] (rows = argv[2]) holding 0, 1, 2, ... and
 * prints the first output. A failure prints the status and exits 1. */
#include "mo-c/Runtime.h"

#include <stdio.h>
#include <stdlib.h>

static int failed(MoStatus *status, const char *what) {
  if (!moStatusIsError(status))
    return 0;
  printf("error in %s (code %d): %s\n", what, (int)moStatusCode(status),
         moStatusMessage(status));
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  MoStatus *status = moStatusCreate();
  MoModel *model = moModelLoadFile(argv[1], NULL, status);
  if (failed(status, "load"))
    return 1;
  printf("entry %s\n", moModelName(model));
  for (int kind = MO_ARG_INPUT; kind <= MO_ARG_WEIGHT; ++kind)
    for (size_t i = 0; i < moModelNumArgs(model, (MoArgKind)kind); ++i) {
      printf("%s %s %s [", kind == MO_ARG_INPUT ? "input" : kind == MO_ARG_OUTPUT ? "output"
                                                                                  : "weight",
             moModelArgName(model, (MoArgKind)kind, i),
             moDTypeName(moModelArgDType(model, (MoArgKind)kind, i)));
      for (int64_t a = 0; a < moModelArgRank(model, (MoArgKind)kind, i); ++a)
        printf("%s%s", a ? ", " : "", moModelArgDimName(model, (MoArgKind)kind, i, a));
      printf("]\n");
    }

  float w[3] = {0.5f, 0.5f, 0.5f};
  int64_t wShape[1] = {3};
  MoTensorMap *weights = moTensorMapCreate();
  MoTensorView wView = {w, MO_DTYPE_FLOAT32, 1, wShape, NULL, true};
  moTensorMapBorrow(weights, "w", wView, status);
  size_t numKeys;
  const char **keys = moTensorMapKeys(weights, &numKeys);
  for (size_t i = 0; i < numKeys; ++i)
    printf("key %s\n", keys[i]);
  moTensorMapKeysDestroy(keys);
  moModelBindWeights(model, weights, status);
  if (failed(status, "bind"))
    return 1;

  int64_t rows = atoll(argv[2]);
  float *x = malloc(sizeof(float) * (rows * 3 + 1));
  for (int64_t i = 0; i < rows * 3; ++i)
    x[i] = (float)i;
  int64_t xShape[2] = {rows, 3};
  MoTensorView input = {x, MO_DTYPE_FLOAT32, 2, xShape, NULL, false};
  MoBuffer *out = NULL;
  moModelExecute(model, &input, 1, &out, 1, status);
  if (failed(status, "execute"))
    return 1;
  const int64_t *shape = moBufferShape(out);
  printf("output shape [%lld, %lld]:", (long long)shape[0], (long long)shape[1]);
  const float *y = moBufferData(out);
  for (int64_t i = 0; i < shape[0] * shape[1]; ++i)
    printf(" %g", y[i]);
  printf("\n");
  moBufferDestroy(out);

  /* A wrong dtype is the runtime's error, not a crash. */
  MoTensorView wrong = {x, MO_DTYPE_INT32, 2, xShape, NULL, false};
  moModelExecute(model, &wrong, 1, &out, 1, status);
  failed(status, "execute");
  /* So is a dtype out of the enum's range. */
  MoTensorView garbage = {x, (MoDType)-7, 2, xShape, NULL, false};
  moModelExecute(model, &garbage, 1, &out, 1, status);
  failed(status, "execute");

  free(x);
  moTensorMapDestroy(weights);
  moModelDestroy(model);
  moStatusDestroy(status);
  return 0;
}
