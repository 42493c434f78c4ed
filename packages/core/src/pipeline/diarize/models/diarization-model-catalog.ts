/**
 * The neural diarization models `npm run models` can install: speaker-segmentation models (pyannote
 * segmentation-3.0 and a fine-tune of it, from sherpa-onnx's `speaker-segmentation-models` release) and
 * speaker-embedding models (its `speaker-recongition-models` release, the release's own spelling).
 * sherpa-onnx's OfflineSpeakerDiarization runs one of each (docs/diarization.md, "Which diarizer runs");
 * the embedding model alone also gives speaker embeddings (findInstalledSpeakerEmbeddingModel).
 */

/** What a diarization model does in sherpa-onnx's OfflineSpeakerDiarization. */
export type DiarizationModelRole = 'segmentation' | 'embedding';

/** One downloadable diarization model. */
export interface DiarizationCatalogModel {
  /** The release asset's name without `.tar.bz2` / `.onnx`; also its folder inside MODELS_DIR. */
  readonly name: string;
  readonly role: DiarizationModelRole;
  /** Official release asset: a `.tar.bz2` holding the folder `<name>/` (segmentation) or one `.onnx` file (embedding). */
  readonly archiveUrl: string;
  /** How the asset is packed: `tar.bz2` unpacks to `<name>/`; `onnx` is the model file itself, installed as `<name>/<name>.onnx`. */
  readonly packaging: 'tar.bz2' | 'onnx';
  /** The ONNX file sherpa-onnx loads, relative to `MODELS_DIR/<name>/`. */
  readonly file: string;
  /**
   * SHA-256 of the asset where its publisher gives one, else null. sherpa-onnx publishes none for these
   * releases, so every entry is null and the first install pins the hash in `MODELS_DIR/models.lock.json`
   * (as for recognition models, models-lock.ts).
   */
  readonly sha256: string | null;
  /** Size of the ONNX file that is loaded, MB (10^6 bytes), as its publisher lists it. */
  readonly megabytes: number;
  /** Millions of parameters, as published. */
  readonly parametersMillions: number | null;
  /** What it was trained on, as its publisher says. */
  readonly trainedOn: string;
  readonly license: string;
  /** Published quality figures, each with where it was published. None of them was measured here. */
  readonly figures: readonly string[];
  readonly description: string;
}

/** github.com/k2-fsa/sherpa-onnx/releases/tag/speaker-segmentation-models */
export const SEGMENTATION_MODELS_RELEASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-segmentation-models/';
/** github.com/k2-fsa/sherpa-onnx/releases/tag/speaker-recongition-models (sic: the release's own spelling). */
export const EMBEDDING_MODELS_RELEASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-recongition-models/';

/**
 * The recommended pair, installed together by the first start and by `npm run models -- download
 * diarization`. Why (docs/diarization.md, "The neural diarizer's models"): it is the pair of
 * pyannote/speaker-diarization-3.1, whose published DER (22.4 % on AMI far-field, 11.3 % on VoxConverse,
 * no collar, overlap counted) is the one measured for these two models together; the embedding model is
 * trained on English-speaking VoxCeleb (5,994 speakers), where the 3D-Speaker model of earlier versions
 * was trained on Mandarin; and both are small (5.7 + 26.5 MB) and MIT / CC BY 4.0. NeMo TitaNet-L has the
 * lower published EER (0.66 % against 0.80 %) but is almost four times the size and the work per window.
 */
export const RECOMMENDED_SEGMENTATION_MODEL = 'sherpa-onnx-pyannote-segmentation-3-0';
export const RECOMMENDED_EMBEDDING_MODEL = 'wespeaker_en_voxceleb_resnet34_LM';

const PYANNOTE_31_FIGURES =
  'as the pair of pyannote/speaker-diarization-3.1 (pyannote segmentation-3.0 + WeSpeaker ResNet34-LM, pyannote\'s own clustering, ' +
  'not sherpa-onnx\'s): DER 22.4 % AMI SDM (far-field), 18.8 % AMI IHM, 11.3 % VoxConverse v0.3, 21.7 % DIHARD 3, no collar, ' +
  'overlap counted (pyannote-audio README, "Benchmark")';

type Entry = Omit<DiarizationCatalogModel, 'archiveUrl' | 'sha256' | 'packaging' | 'file'>;

const SEGMENTATION: readonly Entry[] = [
  {
    name: RECOMMENDED_SEGMENTATION_MODEL,
    role: 'segmentation',
    megabytes: 5.7,
    parametersMillions: 1.5,
    trainedOn: 'AISHELL, AliMeeting, AMI, AVA-AVD, DIHARD, Ego4D, MSDWild, REPERE, VoxConverse (pyannote/speaker-diarization-3.0 model card)',
    license: 'MIT',
    figures: [PYANNOTE_31_FIGURES],
    description: 'pyannote segmentation-3.0 (powerset, up to 3 local speakers per 10 s window), exported by sherpa-onnx',
  },
  {
    name: 'sherpa-onnx-reverb-diarization-v1',
    role: 'segmentation',
    megabytes: 9.5,
    parametersMillions: null,
    trainedOn: "Rev's transcribed English audio, fine-tuned from pyannote segmentation-3.0 (Revai/reverb-diarization-v1 model card)",
    license: "Rev's own licence (LICENSE in the archive; not an open-source licence: read it before production use)",
    figures: [
      'word diarization error rate with Rev\'s ASR 0.047 on Earnings-21 and 0.077 on Rev16, against 0.051 and 0.090 for pyannote 3.0 (revdotcom/reverb README, "Diarization")',
    ],
    description: "Rev's Reverb diarization v1: pyannote segmentation-3.0 fine-tuned on Rev's data, exported by sherpa-onnx",
  },
];

const EMBEDDING: readonly Entry[] = [
  {
    name: RECOMMENDED_EMBEDDING_MODEL,
    role: 'embedding',
    megabytes: 26.5,
    parametersMillions: 6.63,
    trainedOn: 'VoxCeleb2 dev, 5,994 speakers, English-dominated (WeSpeaker voxceleb/v2 recipe), large-margin fine-tuned',
    license: 'CC BY 4.0 (the VoxCeleb licence, WeSpeaker docs/pretrained.md)',
    figures: [
      'EER 0.797 % on VoxCeleb1-O cleaned, cosine scoring (WeSpeaker examples/voxceleb/v2 README, ResNet34-TSTP-emb256 with LM)',
      PYANNOTE_31_FIGURES,
    ],
    description: 'WeSpeaker ResNet34-LM, 256-dimensional embeddings: the embedding model of pyannote/speaker-diarization-3.1',
  },
  {
    name: 'nemo_en_titanet_large',
    role: 'embedding',
    megabytes: 97,
    parametersMillions: 25.3,
    trainedOn: 'VoxCeleb1 and 2, Fisher, Switchboard, LibriSpeech, NIST SRE 2004–2010 (English; NVIDIA model card)',
    license: 'CC BY 4.0',
    figures: [
      'EER 0.66 % on VoxCeleb1-O cleaned; DER 1.73 % on AMI Mix-Headset with oracle VAD and the number of speakers given (nvidia/speakerverification_en_titanet_large model card)',
    ],
    description: 'NVIDIA NeMo TitaNet-L, 192-dimensional embeddings: the lowest published EER here, about four times the size and work of ResNet34',
  },
  {
    name: '3dspeaker_speech_eres2net_sv_en_voxceleb_16k',
    role: 'embedding',
    megabytes: 26.5,
    parametersMillions: 4.6,
    trainedOn: 'VoxCeleb2 dev, 5,994 speakers (3D-Speaker egs/voxceleb/sv-eres2net)',
    license: 'Apache-2.0',
    figures: ['EER 0.97 % on VoxCeleb1-O (3D-Speaker egs/voxceleb/sv-eres2net README, ERes2Net-Base)'],
    description: '3D-Speaker ERes2Net-Base trained on VoxCeleb, 192-dimensional embeddings',
  },
  {
    name: '3dspeaker_speech_eres2net_base_sv_zh-cn_3dspeaker_16k',
    role: 'embedding',
    megabytes: 39.6,
    parametersMillions: 4.6,
    trainedOn: 'the 3D-Speaker corpus (Mandarin; 3D-Speaker egs/3dspeaker/sv-eres2net)',
    license: 'Apache-2.0',
    figures: [
      'EER 7.06 % cross-device, 9.95 % cross-distance, 12.76 % cross-dialect on the 3D-Speaker test set (3D-Speaker egs/3dspeaker/sv-eres2net README, ERes2Net Base)',
    ],
    description: '3D-Speaker ERes2Net-Base trained on Mandarin speech: the model earlier versions of this service named',
  },
];

/** Every diarization model, segmentation models first; within a role the preferred one first (chooseDiarizer and findInstalledSpeakerEmbeddingModel take the first installed). */
export const DIARIZATION_MODEL_CATALOG: readonly DiarizationCatalogModel[] = [
  ...SEGMENTATION.map((entry) => ({
    ...entry,
    archiveUrl: `${SEGMENTATION_MODELS_RELEASE_URL}${entry.name}.tar.bz2`,
    packaging: 'tar.bz2' as const,
    file: 'model.onnx',
    sha256: null,
  })),
  ...EMBEDDING.map((entry) => ({
    ...entry,
    archiveUrl: `${EMBEDDING_MODELS_RELEASE_URL}${entry.name}.onnx`,
    packaging: 'onnx' as const,
    file: `${entry.name}.onnx`,
    sha256: null,
  })),
];

/** The diarization catalog entry named `name` (exact match), or undefined. */
export function findDiarizationCatalogModel(name: string): DiarizationCatalogModel | undefined {
  return DIARIZATION_MODEL_CATALOG.find((model) => model.name === name);
}

/** The catalog's models of one role, preferred first. */
export function diarizationModelsOf(role: DiarizationModelRole): DiarizationCatalogModel[] {
  return DIARIZATION_MODEL_CATALOG.filter((model) => model.role === role);
}
