//! Converts a GGUF model's matrices to one quantization (default Q8_0), keeping its metadata:
//! `smollm-convert IN OUT [q8_0|q4_0]`. One-dimensional tensors (norms) stay as they are.
//! Used once by `cargo xtask setup`: the published file is Q4_1, for which candle has no
//! WebAssembly SIMD kernel.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::process::ExitCode;

use candle_core::Device;
use candle_core::quantized::gguf_file::{self, Content};
use candle_core::quantized::{GgmlDType, QTensor};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(output)) = (args.first(), args.get(1)) else {
        eprintln!("usage: smollm-convert IN.gguf OUT.gguf [q8_0|q4_0]");
        return ExitCode::from(2);
    };
    let target = match args.get(2).map(String::as_str).unwrap_or("q8_0") {
        "q8_0" => GgmlDType::Q8_0,
        "q4_0" => GgmlDType::Q4_0,
        other => {
            eprintln!("smollm-convert: unknown quantization {other:?} (q8_0 or q4_0)");
            return ExitCode::from(2);
        }
    };
    match convert(input, output, target) {
        Ok(n) => {
            println!("smollm-convert: {n} matrices to {target:?} in {output}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("smollm-convert: {e}");
            ExitCode::FAILURE
        }
    }
}

fn convert(input: &str, output: &str, target: GgmlDType) -> Result<usize, String> {
    let file = File::open(input).map_err(|e| format!("cannot open {input}: {e}"))?;
    let mut reader = BufReader::new(file);
    let content = Content::read(&mut reader).map_err(|e| format!("{input}: {e}"))?;
    let mut names: Vec<&String> = content.tensor_infos.keys().collect();
    names.sort_by_key(|n| content.tensor_infos.get(*n).map(|t| t.offset));
    let mut tensors = Vec::with_capacity(names.len());
    let mut converted = 0;
    for name in names {
        let q = content
            .tensor(&mut reader, name, &Device::Cpu)
            .map_err(|e| format!("tensor {name}: {e}"))?;
        let q = if q.shape().dims().len() == 2 && q.dtype() != target {
            let dense = q
                .dequantize(&Device::Cpu)
                .map_err(|e| format!("tensor {name}: {e}"))?;
            converted += 1;
            QTensor::quantize(&dense, target).map_err(|e| format!("tensor {name}: {e}"))?
        } else {
            q
        };
        tensors.push((name.as_str(), q));
    }
    let mut metadata: Vec<(&str, &gguf_file::Value)> = content
        .metadata
        .iter()
        .filter(|(k, _)| k.as_str() != "general.file_type")
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    metadata.sort_by_key(|(k, _)| *k);
    let tmp = format!("{output}.part");
    let out = File::create(&tmp).map_err(|e| format!("cannot create {tmp}: {e}"))?;
    let mut writer = BufWriter::new(out);
    let refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(n, t)| (*n, t)).collect();
    gguf_file::write(&mut writer, &metadata, &refs).map_err(|e| format!("writing {tmp}: {e}"))?;
    drop(writer);
    std::fs::rename(&tmp, output).map_err(|e| format!("cannot move {tmp} to {output}: {e}"))?;
    Ok(converted)
}
