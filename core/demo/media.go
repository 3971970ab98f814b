package demo

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

var pngOnce = sync.OnceValue(func() []byte {
	const n = 32
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			dx, dy := float64(x)-15.5, float64(y)-15.5
			r := math.Hypot(dx, dy)
			c := color.NRGBA{R: uint8(20 + 6*y), G: uint8(60 + 4*x), B: 200, A: 255}
			if r < 9 {
				c = color.NRGBA{R: 240, G: 240, B: 255, A: 255}
			} else if r < 12 {
				c = color.NRGBA{R: 30, G: 30, B: 60, A: 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
})

// pngBytes is the demo's 32×32 PNG.
func pngBytes() []byte { return pngOnce() }

func pngBase64() string { return base64.StdEncoding.EncodeToString(pngBytes()) }

// iconPNG is the demo's icon as a data URI.
func iconPNG() mcp.Icon {
	return mcp.Icon{Src: "data:image/png;base64," + pngBase64(), MIMEType: "image/png", Sizes: []string{"32x32"}}
}

var wavOnce = sync.OnceValue(func() []byte {
	const rate, secs, freq = 8000, 0.25, 440.0
	samples := int(rate * secs)
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + samples*2))
	b.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1)) // PCM
	w(uint16(1)) // mono
	w(uint32(rate))
	w(uint32(rate * 2))
	w(uint16(2))
	w(uint16(16))
	b.WriteString("data")
	w(uint32(samples * 2))
	for i := range samples {
		w(int16(8000 * math.Sin(2*math.Pi*freq*float64(i)/rate)))
	}
	return b.Bytes()
})

func wavBase64() string { return base64.StdEncoding.EncodeToString(wavOnce()) }
