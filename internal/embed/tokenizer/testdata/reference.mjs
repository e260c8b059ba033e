// Reference tokenizations for tokenizer_test.go, from the JavaScript port of
// the reference tokenizers library (npm @huggingface/tokenizers) and, for
// GPT-2's byte-level BPE, from OpenAI's encoder port (npm gpt-3-encoder).
//
// Regenerate (from this directory) with:
//   npm pack @huggingface/tokenizers@0.2.0 gpt-3-encoder@1.1.4  (in a scratch dir, then untar both)
//   TOKENIZERS_JS=<scratch>/hf/package/dist/tokenizers.mjs GPT3_ENCODER=<scratch>/g/package/Encoder.js \
//     go test .. -run TestReferenceTokenization -update
//
// stdin: {"bert": <tokenizer.json>, "gpt2": <tokenizer.json>, "corpus": [{name, text, query}]}
// stdout: the corpus with bert, bert_pair, gpt2 and gpt2_openai id lists added.
import { createRequire } from "node:module";

const { Tokenizer } = await import(process.env.TOKENIZERS_JS);
const require = createRequire(import.meta.url);
const openai = process.env.GPT3_ENCODER ? require(process.env.GPT3_ENCODER) : null;

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { bert, gpt2, corpus } = JSON.parse(input);
const tb = new Tokenizer(bert, {});
const tg = new Tokenizer(gpt2, {});
for (const c of corpus) {
  c.bert = tb.encode(c.text).ids;
  c.bert_pair = tb.encode(c.query, { text_pair: c.text }).ids;
  c.gpt2 = tg.encode(c.text).ids;
  if (openai) c.gpt2_openai = openai.encode(c.text);
}
process.stdout.write(JSON.stringify(corpus));
