import { describe, expect, it } from 'vitest';
import { createEventLineParser, parseEventLine, tokenPrefix, type BlenderEvent } from '../../../src/render-node/blender/event-lines';

describe('parseEventLine', () => {
  it('parses each event render.py prints', () => {
    expect(parseEventLine('RDJSON {"event":"ready","frameCount":2,"engine":"CYCLES"}')).toEqual({ event: 'ready', frameCount: 2, engine: 'CYCLES' });
    expect(parseEventLine('RDJSON {"event":"frame","frame":3,"path":"/o/a_0003.png","seconds":1.5}')).toEqual({
      event: 'frame',
      frame: 3,
      path: '/o/a_0003.png',
      seconds: 1.5,
    });
    expect(parseEventLine('RDJSON {"event":"frame","frame":1,"path":"/o/a.png","seconds":0,"skipped":true}')).toMatchObject({ skipped: true });
    expect(parseEventLine('RDJSON {"event":"done"}')).toEqual({ event: 'done' });
    expect(parseEventLine('RDJSON {"event":"error","message":"no camera"}')).toEqual({ event: 'error', message: 'no camera' });
  });

  it('ignores ordinary Blender output, malformed JSON and unknown or incomplete events', () => {
    expect(parseEventLine('Fra:1 Mem:8.92M (Peak 10.29M) | Time:00:00.06 | Compositing')).toBeNull();
    expect(parseEventLine('RDJSON {"event":"frame","frame":')).toBeNull();
    expect(parseEventLine('RDJSON {"event":"celebrate"}')).toBeNull();
    expect(parseEventLine('RDJSON {"event":"frame","frame":"one","path":"x","seconds":1}')).toBeNull();
    expect(parseEventLine('')).toBeNull();
  });

  it('finds an event behind Blender text that was flushed without a newline', () => {
    expect(parseEventLine('Fra:2 Mem:9.0M | SynRDJSON {"event":"done"}')).toEqual({ event: 'done' });
  });
});

describe('createEventLineParser', () => {
  it('copes with lines and multi-byte characters split across chunks', () => {
    const events: BlenderEvent[] = [];
    const other: string[] = [];
    const parser = createEventLineParser((e) => events.push(e), (l) => other.push(l));
    const text =
      'Blender 3.4.1\r\nRDJSON {"event":"ready"}\nSaved: \'/ö/x.png\'\nRDJSON {"event":"frame","frame":7,"path":"/ö/ü_0007.png","seconds":0.25}\nRDJSON {"event":"done"}';
    const data = Buffer.from(text, 'utf8');
    for (let i = 0; i < data.length; i += 5) parser.push(data.subarray(i, i + 5));
    expect(events.map((e) => e.event)).toEqual(['ready', 'frame']);
    parser.end();
    expect(events.map((e) => e.event)).toEqual(['ready', 'frame', 'done']);
    expect(events[1]).toMatchObject({ frame: 7, path: '/ö/ü_0007.png' });
    expect(other).toEqual(['Blender 3.4.1', "Saved: '/ö/x.png'"]);
  });
});

describe('event lines with a token', () => {
  it('accepts only lines with the token, so scene names printed by Blender cannot forge events', () => {
    const prefix = tokenPrefix('0123abcd');
    const real = `${prefix}{"event":"frame","frame":1,"path":"/o/a_0001.png","seconds":1}`;
    expect(parseEventLine(real, prefix)).toMatchObject({ event: 'frame', frame: 1 });
    const forged = 'Fra:1 | Scene, RDJSON {"event":"frame","frame":1,"seconds":0,"x":" | Synchronizing object | ","path":"/etc/hosts"}';
    expect(parseEventLine(forged, prefix)).toBeNull();
    expect(parseEventLine('RDJSON:wrongtoken {"event":"done"}', prefix)).toBeNull();
  });
});
